import { describe, expect, it } from 'vitest';
import { TWO_FACTOR_ENROL_PATH, twoFactorDeniesRepoAccess, twoFactorRequiredMessage } from './two-factor-policy.js';

const user = (hasTwoFactor: boolean, via?: 'token' | 'password' | 'session' | 'ssh' | 'runner') => ({ hasTwoFactor, via });

describe('two-factor repository policy', () => {
  it('denies signed-in users without two-factor when enforced, however they signed in', () => {
    for (const via of ['token', 'password', 'session', 'ssh', undefined] as const) {
      expect(twoFactorDeniesRepoAccess('enforced', user(false, via))).toBe(true);
    }
  });

  it('lets users with two-factor in when enforced', () => {
    expect(twoFactorDeniesRepoAccess('enforced', user(true, 'ssh'))).toBe(false);
    expect(twoFactorDeniesRepoAccess('enforced', user(true, 'token'))).toBe(false);
  });

  it('leaves anonymous callers and Actions runners alone', () => {
    expect(twoFactorDeniesRepoAccess('enforced', null)).toBe(false);
    expect(twoFactorDeniesRepoAccess('enforced', user(false, 'runner'))).toBe(false);
  });

  it('denies nobody when two-factor is optional', () => {
    expect(twoFactorDeniesRepoAccess('', user(false, 'ssh'))).toBe(false);
    expect(twoFactorDeniesRepoAccess('', user(false, 'session'))).toBe(false);
  });
});

describe('two-factor refusal message', () => {
  it('says what was refused, why, and where to enrol', () => {
    const message = twoFactorRequiredMessage('Sudo (by root)');
    expect(message).toMatch(/^Sudo \(by root\) requires two-factor authentication/);
    expect(message).toContain('TWO_FACTOR_AUTH = enforced');
    expect(message).toContain(`POST ${TWO_FACTOR_ENROL_PATH}`);
    expect(message).toContain(`POST ${TWO_FACTOR_ENROL_PATH}/confirm`);
  });
});
