import { describe, expect, it, vi } from 'vitest';
import { SecretBox } from '@cairn/platform';
import { OpenedSecrets } from './opened-secrets.js';

describe('OpenedSecrets', () => {
  it('opens each sealed value once, a new sealed value afresh, and nothing for none', () => {
    const box = new SecretBox('opened-secrets-test-key-0123456789', 'webhook');
    const open = vi.spyOn(box, 'open');
    const secrets = new OpenedSecrets(box);
    const a = box.seal('first');
    expect(secrets.open(a)).toBe('first');
    expect(secrets.open(a)).toBe('first');
    expect(open).toHaveBeenCalledTimes(1);
    // The same plaintext sealed again (an edited hook) is another sealed text.
    expect(secrets.open(box.seal('second'))).toBe('second');
    expect(open).toHaveBeenCalledTimes(2);
    expect(secrets.open(null)).toBe('');
    expect(secrets.open('')).toBe('');
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('does not remember what cannot be opened, and stays bounded', () => {
    const box = new SecretBox('opened-secrets-test-key-0123456789', 'webhook');
    const other = new SecretBox('another-key-entirely-0123456789', 'webhook');
    const secrets = new OpenedSecrets(box, 2);
    const foreign = other.seal('x');
    expect(() => secrets.open(foreign)).toThrow();
    expect(() => secrets.open(foreign)).toThrow();
    const open = vi.spyOn(box, 'open');
    const values = ['a', 'b', 'c'].map((v) => box.seal(v));
    for (const v of values) secrets.open(v);
    expect(open).toHaveBeenCalledTimes(3);
    // Full at the third: emptied, so the first is opened again; the third is still known.
    expect(secrets.open(values[2])).toBe('c');
    expect(open).toHaveBeenCalledTimes(3);
    expect(secrets.open(values[0])).toBe('a');
    expect(open).toHaveBeenCalledTimes(4);
  });
});
