/**
 * An RFC 6238 TOTP generator for end-to-end tests, written apart from identity-service's (so a test checks the server
 * against the standard, not against itself): HMAC-SHA1, 30-second steps, 6 digits — what authenticator apps use.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function fromBase32(text: string): Buffer {
  const bits = [...text.replace(/=+$/, '').toUpperCase()]
    .map((ch) => {
      const v = BASE32.indexOf(ch);
      if (v < 0) throw new Error(`not base32: ${ch}`);
      return v.toString(2).padStart(5, '0');
    })
    .join('');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The 30-second time step of a moment (ms since the epoch). */
export function totpStep(timeMs = Date.now()): number {
  return Math.floor(timeMs / 30_000);
}

/** The code of a base32 secret at a time step (default: now). */
export function totpCode(secretBase32: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', fromBase32(secretBase32)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A 6-digit string that is not the code of any step from `step - 2` to `step + 2` (a wrong code, for sure). */
export function wrongTotpCode(secretBase32: string, step = totpStep()): string {
  const near = new Set([-2, -1, 0, 1, 2].map((d) => totpCode(secretBase32, step + d)));
  let n = Number(totpCode(secretBase32, step));
  do n = (n + 1) % 1_000_000;
  while (near.has(String(n).padStart(6, '0')));
  return String(n).padStart(6, '0');
}
