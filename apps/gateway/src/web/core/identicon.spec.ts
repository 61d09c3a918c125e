import { describe, expect, it } from 'vitest';
import { avatarSize, identiconSvg } from './identicon.js';

describe('identicon', () => {
  it('is the same for the same name whatever its case, and differs between names', () => {
    expect(identiconSvg('Alice', 40)).toBe(identiconSvg('alice', 40));
    expect(identiconSvg('alice', 40)).not.toBe(identiconSvg('bob', 40));
  });

  it('carries nothing of the name into the SVG', () => {
    const svg = identiconSvg('<script>alert(1)</script>', 40);
    expect(svg).not.toContain('script');
    expect(svg).toMatch(/^<svg [^>]*width="40"/);
  });

  it('clamps the size', () => {
    expect(avatarSize('2')).toBe(16);
    expect(avatarSize('4096')).toBe(512);
    expect(avatarSize('x')).toBe(80);
  });
});
