import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox('a test secret key of enough length', 'two-factor');

  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('JBSWY3DPEHPK3PXP');
    expect(a).toMatch(/^v1\./);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(a);
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses tampered data and other keys or purposes', () => {
    const sealed = box.seal('secret');
    const [v, iv, tag, ct] = sealed.split('.');
    const bad = Buffer.from(ct, 'base64url');
    bad[0] ^= 1;
    expect(() => box.open([v, iv, tag, bad.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox('another secret key of enough length', 'two-factor').open(sealed)).toThrow();
    expect(() => new SecretBox('a test secret key of enough length', 'other').open(sealed)).toThrow();
    expect(() => box.open('garbage')).toThrow();
  });
});
