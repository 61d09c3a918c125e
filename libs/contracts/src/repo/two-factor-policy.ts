import type { ActorDto } from '../common/actor.js';

/** `[security] TWO_FACTOR_AUTH`: empty (two-factor is optional) or `enforced`. */
export type TwoFactorPolicy = '' | 'enforced';

/**
 * The two-factor policy (its one home). With `enforced`, a signed-in user without two-factor enrolled — site admins
 * included, as in Gitea — must enrol before repository data reaches them by any way: the gateway applies it to the API
 * (repository routes answer 404, lists and search leave private repositories out, organization hooks and admin routes
 * answer 403), web pages and git over HTTP, and refuses `Sudo` by an administrator who must enrol; repo-service
 * applies it to lists and search (viewer scope) and to git over SSH. Anonymous callers are not affected (public
 * repositories stay readable), nor are Actions runners, which are not users and cannot enrol.
 */
export function twoFactorDeniesRepoAccess(
  policy: TwoFactorPolicy,
  actor: Pick<ActorDto, 'hasTwoFactor' | 'via'> | null,
): boolean {
  return policy === 'enforced' && actor !== null && !actor.hasTwoFactor && actor.via !== 'runner';
}

/** Cairn's enrolment API (Gitea has only a web page, `/user/settings/security/two_factor/enroll`). */
export const TWO_FACTOR_ENROL_PATH = '/api/v1/user/2fa';

/**
 * The one wording of every refusal under the policy (API, web pages, git over HTTP and SSH): what was refused, why,
 * and how to enrol — beyond Gitea, whose 404 says only "not found".
 */
export function twoFactorRequiredMessage(refused = 'repository access'): string {
  return (
    `${refused} requires two-factor authentication ([security] TWO_FACTOR_AUTH = enforced): enrol with ` +
    `POST ${TWO_FACTOR_ENROL_PATH} (Basic authentication with your password), then activate it with ` +
    `POST ${TWO_FACTOR_ENROL_PATH}/confirm and a code from your authenticator app`
  );
}
