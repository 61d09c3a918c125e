import type { SigningRule } from '../../foundation/config/signing-settings.js';

/** What the rules ask, each computed only when a rule needs it (a `never` costs nothing). */
export interface SigningFacts {
  /** `pubkey`: the actor has at least one GPG key. */
  actorHasGpgKey(): Promise<boolean>;
  /** `twofa`: the actor has two-factor authentication enrolled. */
  actorHasTwoFactor(): Promise<boolean>;
  /** `parentsigned`: the commit a file change builds on has a signature that verifies. */
  parentSigned(): Promise<boolean>;
  /** `basesigned` / `headsigned`: the pull request's base / head commit verifies. */
  baseSigned(): Promise<boolean>;
  headSigned(): Promise<boolean>;
  /** `commitssigned`: the head and every commit of the head not in the base verify. */
  commitsSigned(): Promise<boolean>;
  /** `approved`: the pull request has an approving review. */
  approved(): Promise<boolean>;
}

export type RulesVerdict = { sign: true } | { sign: false; reason: SigningRule };

/** Gitea's `signingModeFromStrings`: the first `never` or `always` stands alone; an empty list is `never`. */
export function effectiveRules(rules: readonly SigningRule[]): SigningRule[] {
  const out: SigningRule[] = [];
  for (const rule of rules) {
    if (rule === 'never' || rule === 'always') return [rule];
    out.push(rule);
  }
  return out.length ? out : ['never'];
}

const CHECKS: Record<Exclude<SigningRule, 'always' | 'never'>, keyof SigningFacts> = {
  pubkey: 'actorHasGpgKey',
  twofa: 'actorHasTwoFactor',
  parentsigned: 'parentSigned',
  basesigned: 'baseSigned',
  headsigned: 'headSigned',
  commitssigned: 'commitsSigned',
  approved: 'approved',
};

/** Signs when every rule holds (in order; the first that fails is the reason not to). */
export async function evaluateRules(rules: readonly SigningRule[], facts: SigningFacts): Promise<RulesVerdict> {
  for (const rule of effectiveRules(rules)) {
    if (rule === 'always') return { sign: true };
    if (rule === 'never') return { sign: false, reason: 'never' };
    if (!(await facts[CHECKS[rule]]())) return { sign: false, reason: rule };
  }
  return { sign: true };
}
