import { describe, expect, it } from 'vitest';
import { internalTokenMatches, pktLine } from './internal-http.server.js';

describe('internal git HTTP helpers', () => {
  it('frames a pkt-line with its hex length', () => {
    expect(pktLine('# service=git-upload-pack\n')).toBe('001e# service=git-upload-pack\n');
    expect(pktLine('# service=git-receive-pack\n')).toBe('001f# service=git-receive-pack\n');
  });

  it('accepts only the exact internal token', () => {
    const token = 'a-long-internal-token-value';
    expect(internalTokenMatches(token, token)).toBe(true);
    expect(internalTokenMatches(`${token}x`, token)).toBe(false);
    expect(internalTokenMatches(token.slice(1), token)).toBe(false);
    expect(internalTokenMatches('', token)).toBe(false);
    expect(internalTokenMatches(undefined, token)).toBe(false);
    expect(internalTokenMatches([token], token)).toBe(false);
  });
});
