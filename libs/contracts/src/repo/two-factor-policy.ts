import type { ActorDto } from '../common/actor.js';

export type TwoFactorPolicy = '' | 'enforced';

/** With `enforced`, a signed-in user without two-factor (site admins too, as Gitea) gets no repository data. */
export function twoFactorDeniesRepoAccess(
  policy: TwoFactorPolicy,
  actor: Pick<ActorDto, 'hasTwoFactor' | 'via'> | null,
): boolean {
  return policy === 'enforced' && actor !== null && !actor.hasTwoFactor && actor.via !== 'runner';
}

/** Gitea has only a web page, `/user/settings/security/two_factor/enroll`. */
export const TWO_FACTOR_ENROL_PATH = '/api/v1/user/2fa';

/** Every refusal under the policy (API, web, git over HTTP and SSH) says how to enrol; Gitea's 404 says only "not found". */
export function twoFactorRequiredMessage(refused = 'repository access'): string {
  return (
    `${refused} requires two-factor authentication ([security] TWO_FACTOR_AUTH = enforced): enrol with ` +
    `POST ${TWO_FACTOR_ENROL_PATH} (Basic authentication with your password), then activate it with ` +
    `POST ${TWO_FACTOR_ENROL_PATH}/confirm and a code from your authenticator app`
  );
}
