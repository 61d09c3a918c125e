import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './password-hasher.js';

// Cheap parameters keep the suite fast; the format and checks are the same at any cost.
const hasher = new PasswordHasher({ N: 1024, r: 8, p: 1 });

describe('PasswordHasher (scrypt)', () => {
  it('stores scrypt$N$r$p$salt$hash and verifies the right password', async () => {
    const stored = await hasher.hash('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(Buffer.from(stored.split('$')[4], 'base64')).toHaveLength(16);
    expect(await hasher.verify('correct horse battery staple', stored)).toBe(true);
  });

  it('rejects a wrong password', async () => {
    const stored = await hasher.hash('secret');
    expect(await hasher.verify('Secret', stored)).toBe(false);
    expect(await hasher.verify('', stored)).toBe(false);
  });

  it('salts every hash differently', async () => {
    expect(await hasher.hash('same')).not.toBe(await hasher.hash('same'));
  });

  it('verifies hashes made with other parameters (they are read from the stored value)', async () => {
    const stronger = new PasswordHasher({ N: 2048, r: 4, p: 2 });
    const stored = await stronger.hash('pw');
    expect(await hasher.verify('pw', stored)).toBe(true);
    expect(hasher.needsRehash(stored)).toBe(true);
    expect(stronger.needsRehash(stored)).toBe(false);
  });

  it('rejects malformed, tampered or absurd stored values', async () => {
    const stored = await hasher.hash('pw');
    const parts = stored.split('$');
    expect(await hasher.verify('pw', null)).toBe(false);
    expect(await hasher.verify('pw', 'plaintext')).toBe(false);
    expect(await hasher.verify('pw', ['bcrypt', ...parts.slice(1)].join('$'))).toBe(false);
    expect(await hasher.verify('pw', [parts[0], '1000', ...parts.slice(2)].join('$'))).toBe(false); // not a power of 2
    expect(await hasher.verify('pw', [parts[0], String(2 ** 24), ...parts.slice(2)].join('$'))).toBe(false);
    const flipped = Buffer.from(parts[5], 'base64');
    flipped[0] ^= 1;
    expect(await hasher.verify('pw', [...parts.slice(0, 5), flipped.toString('base64')].join('$'))).toBe(false);
  });

  it('burns comparable work for unknown users without throwing', async () => {
    await expect(hasher.burn('whatever')).resolves.toBeUndefined();
  });
});
