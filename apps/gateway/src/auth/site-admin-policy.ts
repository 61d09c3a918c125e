import {
  DomainError, ErrorCode, twoFactorDeniesRepoAccess, twoFactorRequiredMessage, type ActorDto, type TwoFactorPolicy,
} from '@cairn/contracts';

/**
 * Site administration (API `@SiteAdminOnly()` routes and the `/-/admin` pages): site admins only (Gitea's
 * `reqSiteAdmin`), and none who must still enrol in two-factor authentication — admin pages reach every repository.
 */
export function assertSiteAdmin(actor: ActorDto, twoFactorAuth: TwoFactorPolicy): void {
  if (!actor.isAdmin) throw new DomainError(ErrorCode.PERMISSION_DENIED, 'user should be the site admin');
  if (twoFactorDeniesRepoAccess(twoFactorAuth, actor)) {
    throw DomainError.forbidden(twoFactorRequiredMessage('site administration'));
  }
}
