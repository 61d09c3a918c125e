import sshpk from 'sshpk';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from './ssh-fingerprint.js';

describe('fingerprintOf', () => {
  it.each(['ed25519', 'ecdsa'] as const)('matches sshpk (what identity-service stores) for %s keys', (type) => {
    const key = sshpk.generatePrivateKey(type).toPublic();
    expect(fingerprintOf(key.toBuffer('rfc4253'))).toBe(key.fingerprint('sha256').toString());
  });
});
