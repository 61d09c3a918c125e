import type { UserDto } from '../identity/user.dto.js';
import type { PackageDto } from './package-api.dto.js';

/** Events published by packages-service (through its outbox) on the `CAIRN_EVENTS` stream. */
export const PackageEvents = {
  /** A package version was created (its files uploaded): Gitea's `package` webhook, action `created`. */
  versionCreated: 'packages.evt.package.created',
  /** A package version was deleted: Gitea's `package` webhook, action `deleted`. */
  versionDeleted: 'packages.evt.package.deleted',
} as const;

/** Gitea's `HookPackageAction`. */
export type PackageEventAction = 'created' | 'deleted';

/**
 * `packages.evt.package.created` / `deleted`: what hooks-service needs to match hooks (the owner, the linked
 * repository) and Gitea's payload parts. `package` is rendered as the sender sees it (Gitea renders the payload's
 * package for the doer). Small: one version, two users, at most one repository.
 */
export interface PackageEventData {
  action: PackageEventAction;
  ownerId: number;
  /** The linked repository, for its hooks (null: only owner and system hooks get the event). */
  repository: { id: number; ownerId: number } | null;
  package: PackageDto;
  sender: UserDto | null;
}
