import { describe, expect, it } from 'vitest';
import { acceptedVerificationTokens, tokenVariants, verificationToken } from './verification-token.js';

const user = { id: 7, name: 'alice', email: 'alice@example.com', createdAt: new Date('2026-01-02T03:04:05Z') };

describe('verification token', () => {
  it('is stable within a minute and changes with the window and the user', () => {
    const t = new Date('2026-11-24T10:00:05Z');
    const token = verificationToken(user, t, 1);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(verificationToken(user, new Date('2026-11-24T10:00:59.999Z'), 1)).toBe(token);
    expect(verificationToken(user, new Date('2026-11-24T10:01:00Z'), 1)).not.toBe(token);
    expect(verificationToken({ ...user, email: 'other@example.com' }, t, 1)).not.toBe(token);
    expect(verificationToken({ ...user, id: 8 }, t, 1)).not.toBe(token);
  });

  it('accepts the token handed out during its minute and the next one, not later', () => {
    const handedOut = acceptedVerificationTokens(user, new Date('2026-11-24T10:00:30Z'))[0];
    expect(acceptedVerificationTokens(user, new Date('2026-11-24T10:00:59Z'))).toContain(handedOut);
    expect(acceptedVerificationTokens(user, new Date('2026-11-24T10:01:59Z'))).toContain(handedOut);
    expect(acceptedVerificationTokens(user, new Date('2026-11-24T10:02:00Z'))).not.toContain(handedOut);
  });

  it('lists the line-end variants signing tools produce', () => {
    expect(tokenVariants(['a'])).toEqual(['a', 'a\n', 'a\r\n', 'a\n\n']);
  });
});
