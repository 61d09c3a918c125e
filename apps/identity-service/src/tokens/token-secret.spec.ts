import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_LENGTH, accessTokenChecksum, crc32, isWellFormedAccessToken,
} from '@cairn/contracts';
import { generateAccessToken, hashAccessToken, randomBase62 } from './token-secret.js';

describe('access token format', () => {
  it('is cairn_ + 40 base62 characters + a 6-character checksum', () => {
    const token = generateAccessToken();
    expect(token).toMatch(/^cairn_[0-9A-Za-z]{46}$/);
    expect(token).toHaveLength(ACCESS_TOKEN_LENGTH);
    expect(token.slice(-6)).toBe(accessTokenChecksum(token.slice(0, -6)));
    expect(isWellFormedAccessToken(token)).toBe(true);
  });

  it('uses zlib-compatible CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926); // the standard check value
    expect(crc32('')).toBe(0);
  });

  it('rejects tokens with a wrong checksum, a typo, another prefix or another length without a lookup', () => {
    const token = generateAccessToken();
    const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedAccessToken(typo)).toBe(false);
    expect(isWellFormedAccessToken(token.slice(0, -1) + (token.endsWith('0') ? '1' : '0'))).toBe(false);
    expect(isWellFormedAccessToken(`gitea_${token.slice(6)}`)).toBe(false);
    expect(isWellFormedAccessToken(token + 'x')).toBe(false);
    expect(isWellFormedAccessToken('0123456789abcdef0123456789abcdef01234567')).toBe(false);
    expect(isWellFormedAccessToken('')).toBe(false);
  });

  it('never repeats and spreads over the whole alphabet', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateAccessToken()));
    expect(tokens.size).toBe(200);
    const chars = new Set(randomBase62(5000));
    expect(chars.size).toBe(62);
  });

  it('is stored as a hex SHA-256', () => {
    expect(hashAccessToken('cairn_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAccessToken('a')).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  });
});
