import type { ActorDto } from '../common/actor.js';

/** `[security] TWO_FACTOR_AUTH`: empty (two-factor is optional) or `enforced`. */
export type TwoFactorPolicy = '' | 'enforced';

/**
 * The two-factor repository policy (its one home: the gateway applies it to the API, web pages and git over HTTP,
 * repo-service's SSH server to git over SSH). With `enforced`, a signed-in user without two-factor enrolled gets no
 * repository access at all — site admins included, as in Gitea; the caller answers as for a repository that does not
 * exist (or, over SSH, says why). Anonymous callers are not affected (public repositories stay readable), nor are
 * Actions runners, which are not users and cannot enrol.
 */
export function twoFactorDeniesRepoAccess(
  policy: TwoFactorPolicy,
  actor: Pick<ActorDto, 'hasTwoFactor' | 'via'> | null,
): boolean {
  return policy === 'enforced' && actor !== null && !actor.hasTwoFactor && actor.via !== 'runner';
}
