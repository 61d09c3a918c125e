import type { ActorDto } from '../common/actor.js';

/** `[security] TWO_FACTOR_AUTH`: empty (two-factor is optional) or `enforced`. */
export type TwoFactorPolicy = '' | 'enforced';

/**
 * The two-factor policy's one home: with `enforced`, a signed-in user without two-factor (site admins too, as
 * Gitea) gets no repository data by any way until enrolled. Anonymous callers and Actions runners are not affected.
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
