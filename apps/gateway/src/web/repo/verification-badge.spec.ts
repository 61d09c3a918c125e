import { describe, expect, it } from 'vitest';
import { NOT_SIGNED_VERIFICATION } from '@cairn/contracts';
import { verificationBadge } from './verification-badge.js';

const signed = { signature: '-----BEGIN SSH SIGNATURE-----', payload: 'tree …', signer: null };

describe('verificationBadge', () => {
  it('shows nothing for an unsigned commit', () => {
    expect(verificationBadge(NOT_SIGNED_VERIFICATION).state).toBe('unsigned');
    expect(verificationBadge(null).state).toBe('unsigned');
  });

  it('says why a signature did not verify', () => {
    const b = verificationBadge({ ...signed, verified: false, reason: 'gpg.error.no_gpg_keys_found' });
    expect(b).toMatchObject({ state: 'unverified', label: 'Unverified', signer: null, key: null });
    expect(b.description).toMatch(/No known key/);
  });

  it('names the signer and the key of a verified signature, with its trust status', () => {
    const b = verificationBadge({
      ...signed,
      verified: true,
      reason: 'alice / SHA256:abc+def',
      signer: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
      trust_status: 'trusted',
    });
    expect(b).toEqual({
      state: 'trusted',
      label: 'Trusted',
      description: expect.stringMatching(/trusted in this repository/),
      signer: 'Alice (alice) <alice@example.com>',
      key: 'SHA256:abc+def',
    });
  });

  it.each(['untrusted', 'unmatched'] as const)('shows %s verified signatures as such', (trust) => {
    const b = verificationBadge({ ...signed, verified: true, reason: 'bob / 0123ABCD', signer: null, trust_status: trust });
    expect(b).toMatchObject({ state: trust, signer: 'bob', key: '0123ABCD' });
  });

  it('falls back to "Verified" when no trust status is given', () => {
    expect(verificationBadge({ ...signed, verified: true, reason: 'x / K', signer: null }).label).toBe('Verified');
  });
});
