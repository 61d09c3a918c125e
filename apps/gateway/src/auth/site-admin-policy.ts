import {
  DomainError, ErrorCode, twoFactorDeniesRepoAccess, twoFactorRequiredMessage, type ActorDto, type TwoFactorPolicy,
} from '@cairn/contracts';

/** Gitea's `reqSiteAdmin`, and no admin who must still enrol in two-factor: admin pages reach every repository. */
export function assertSiteAdmin(actor: ActorDto, twoFactorAuth: TwoFactorPolicy): void {
  if (!actor.isAdmin) throw new DomainError(ErrorCode.PERMISSION_DENIED, 'user should be the site admin');
  if (twoFactorDeniesRepoAccess(twoFactorAuth, actor)) {
    throw DomainError.forbidden(twoFactorRequiredMessage('site administration'));
  }
}
