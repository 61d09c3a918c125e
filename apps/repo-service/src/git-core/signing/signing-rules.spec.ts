import { describe, expect, it } from 'vitest';
import { effectiveRules, evaluateRules, type SigningFacts } from './signing-rules.js';

/** Facts that answer as given and record which were asked. */
function facts(answers: Partial<Record<keyof SigningFacts, boolean>>): SigningFacts & { asked: string[] } {
  const asked: string[] = [];
  const fact = (name: keyof SigningFacts) => () => {
    asked.push(name);
    return Promise.resolve(answers[name] ?? false);
  };
  return {
    asked,
    actorHasGpgKey: fact('actorHasGpgKey'),
    actorHasTwoFactor: fact('actorHasTwoFactor'),
    parentSigned: fact('parentSigned'),
    baseSigned: fact('baseSigned'),
    headSigned: fact('headSigned'),
    commitsSigned: fact('commitsSigned'),
    approved: fact('approved'),
  };
}

describe('effectiveRules (Gitea signingModeFromStrings)', () => {
  it('lets the first never or always stand alone, whatever else the list holds', () => {
    expect(effectiveRules(['pubkey', 'always', 'twofa'])).toEqual(['always']);
    expect(effectiveRules(['twofa', 'never', 'always'])).toEqual(['never']);
    expect(effectiveRules(['always', 'never'])).toEqual(['always']);
  });

  it('keeps the conditions in order, and reads an empty list as never', () => {
    expect(effectiveRules(['pubkey', 'twofa', 'parentsigned'])).toEqual(['pubkey', 'twofa', 'parentsigned']);
    expect(effectiveRules([])).toEqual(['never']);
  });
});

describe('evaluateRules', () => {
  it('always signs and never does not, without asking anything', async () => {
    const f = facts({});
    expect(await evaluateRules(['always'], f)).toEqual({ sign: true });
    expect(await evaluateRules(['never'], f)).toEqual({ sign: false, reason: 'never' });
    expect(await evaluateRules(['pubkey', 'never'], f)).toEqual({ sign: false, reason: 'never' });
    expect(f.asked).toEqual([]);
  });

  it('pubkey: signs only for an actor with a GPG key', async () => {
    expect(await evaluateRules(['pubkey'], facts({ actorHasGpgKey: true }))).toEqual({ sign: true });
    expect(await evaluateRules(['pubkey'], facts({}))).toEqual({ sign: false, reason: 'pubkey' });
  });

  it('twofa: signs only for an actor enrolled in two-factor authentication', async () => {
    expect(await evaluateRules(['twofa'], facts({ actorHasTwoFactor: true }))).toEqual({ sign: true });
    expect(await evaluateRules(['twofa'], facts({}))).toEqual({ sign: false, reason: 'twofa' });
  });

  it('all conditions must hold; the first failing one is the reason and the rest are not asked', async () => {
    const f = facts({ actorHasGpgKey: true, actorHasTwoFactor: false, parentSigned: true });
    expect(await evaluateRules(['pubkey', 'twofa', 'parentsigned'], f)).toEqual({ sign: false, reason: 'twofa' });
    expect(f.asked).toEqual(['actorHasGpgKey', 'actorHasTwoFactor']);
    expect(await evaluateRules(['pubkey', 'twofa', 'parentsigned'], facts({ actorHasGpgKey: true, actorHasTwoFactor: true, parentSigned: true })))
      .toEqual({ sign: true });
  });

  it('merge rules: basesigned, headsigned, commitssigned and approved each ask their own fact', async () => {
    for (const [rule, fact] of [
      ['basesigned', 'baseSigned'], ['headsigned', 'headSigned'], ['commitssigned', 'commitsSigned'], ['approved', 'approved'],
    ] as const) {
      expect(await evaluateRules([rule], facts({ [fact]: true })), rule).toEqual({ sign: true });
      expect(await evaluateRules([rule], facts({})), rule).toEqual({ sign: false, reason: rule });
    }
  });
});
