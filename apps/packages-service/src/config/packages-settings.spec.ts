import { describe, expect, it } from 'vitest';
import { parseSizeLimit } from './packages-settings.js';

describe('parseSizeLimit (Gitea\'s size notation)', () => {
  it('reads -1, plain bytes, SI and binary units', () => {
    expect(parseSizeLimit('-1')).toBe(-1);
    expect(parseSizeLimit('1024')).toBe(1024);
    expect(parseSizeLimit('100 MB')).toBe(100_000_000);
    expect(parseSizeLimit('1 GiB')).toBe(1024 ** 3);
    expect(parseSizeLimit('512KiB')).toBe(512 * 1024);
    expect(parseSizeLimit('1.5 kb')).toBe(1500);
  });

  it('refuses anything else with a message', () => {
    for (const bad of ['', 'lots', '-2', '10 XB', '1e9']) expect(() => parseSizeLimit(bad), bad).toThrow();
  });
});
