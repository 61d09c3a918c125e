import type { UserDto } from '../identity/user.dto.js';
import type { PackageDto } from './package-api.dto.js';

/** Published by packages-service through its outbox. */
export const PackageEvents = {
  /** A package version was created (its files uploaded): Gitea's `package` webhook, action `created`. */
  versionCreated: 'packages.evt.package.created',
  /** A package version was deleted: Gitea's `package` webhook, action `deleted`. */
  versionDeleted: 'packages.evt.package.deleted',
} as const;

export type PackageEventAction = 'created' | 'deleted';

/** `package` is rendered as the sender sees it (Gitea renders it for the doer). Small: one version, two users. */
export interface PackageEventData {
  action: PackageEventAction;
  ownerId: number;
  /** Null: only owner and system hooks get the event. */
  repository: { id: number; ownerId: number } | null;
  package: PackageDto;
  sender: UserDto | null;
}
