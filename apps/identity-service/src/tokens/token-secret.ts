import { createHash, randomBytes } from 'node:crypto';
import {
  ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_RANDOM_LENGTH, BASE62_ALPHABET, accessTokenChecksum,
} from '@cairn/contracts';

/** `n` uniformly random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248) out += BASE62_ALPHABET[b % 62]; // 248 = 4 × 62
      if (out.length === n) break;
    }
  }
  return out;
}

/** A new access token: `cairn_` + 40 random base62 characters (≈238 bits) + a 6-character CRC32 checksum. */
export function generateAccessToken(): string {
  const body = ACCESS_TOKEN_PREFIX + randomBase62(ACCESS_TOKEN_RANDOM_LENGTH);
  return body + accessTokenChecksum(body);
}

/** What the database stores and looks tokens up by: hex SHA-256 (tokens have enough entropy for a fast hash). */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
