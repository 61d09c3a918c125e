import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, IdentitySubjects, accessAtLeast, twoFactorDeniesRepoAccess, twoFactorRequiredMessage, type AccessLevel, type ActorDto, type OwnerDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { PACKAGES_SETTINGS, type PackagesSettings } from '../config/packages-settings.js';
import { determineAccessMode, tokenScopeAllows } from './access-mode.js';

export interface OwnerAccess {
  owner: OwnerDto;
  access: AccessLevel;
  /** The caller must enrol in two-factor first (`TWO_FACTOR_AUTH = enforced`): refusals say so. */
  mustEnrolTwoFactor?: boolean;
}

/** Why a package operation was refused: the registries answer in their own formats. */
export type AccessRefusal =
  | { kind: 'unauthenticated'; message: string }
  | { kind: 'forbidden'; message: string };

export const PERMISSION_MESSAGE = 'user should have specific permission or be a site admin';

/** Asks identity-service for organization membership only when the owner is an organization. */
@Injectable()
export class PackageAccess {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(PACKAGES_SETTINGS) private readonly settings: PackagesSettings,
  ) {}

  async resolve(actor: ActorDto | null, ownerName: string): Promise<OwnerAccess> {
    const owner = await this.rpc.send(IdentitySubjects.ownerResolve, { name: ownerName });
    const mustEnrolTwoFactor = twoFactorDeniesRepoAccess(this.settings.twoFactorAuth, actor);
    const membership =
      actor && owner.kind === 'organization' && !actor.isAdmin && !mustEnrolTwoFactor
        ? await this.rpc.send(IdentitySubjects.orgMembership, { orgId: owner.id, userId: actor.id })
        : null;
    const access = determineAccessMode(actor, owner, { requireSignin: this.settings.requireSigninView, membership, mustEnrolTwoFactor });
    return { owner, access, ...(mustEnrolTwoFactor ? { mustEnrolTwoFactor } : {}) };
  }

  /** The actor a stored sign-in (registry bearer token) stands for now; null when it may no longer sign in. */
  async currentActor(userId: number, tokenId?: number): Promise<ActorDto | null> {
    try {
      return (await this.rpc.send(IdentitySubjects.authReference, { userId, ...(tokenId !== undefined ? { tokenId } : {}) })).actor;
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.UNAUTHENTICATED) return null;
      throw err;
    }
  }

  /** Anonymous callers must authenticate (401); signed-in ones are refused (403), also for a lacking token scope. */
  refusal(actor: ActorDto | null, resolved: Omit<OwnerAccess, 'owner'>, need: 'read' | 'write'): AccessRefusal | null {
    if (actor && !tokenScopeAllows(actor, need)) {
      return { kind: 'forbidden', message: `token does not have at least one of required scope(s): [${need}:package]` };
    }
    if (accessAtLeast(resolved.access, need)) return null;
    if (actor && resolved.mustEnrolTwoFactor) return { kind: 'forbidden', message: twoFactorRequiredMessage('package access') };
    return actor ? { kind: 'forbidden', message: PERMISSION_MESSAGE } : { kind: 'unauthenticated', message: PERMISSION_MESSAGE };
  }
}
