import sshpk from 'sshpk';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from './ssh-fingerprint.js';

describe('fingerprintOf', () => {
  it('matches sshpk (what identity-service stores) for ed25519 and ecdsa keys', () => {
    for (const key of [sshpk.generatePrivateKey('ed25519').toPublic(), sshpk.generatePrivateKey('ecdsa').toPublic()]) {
      expect(fingerprintOf(key.toBuffer('rfc4253'))).toBe(key.fingerprint('sha256').toString());
    }
  });
});
