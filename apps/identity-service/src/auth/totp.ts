import { createHmac, timingSafeEqual } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps expect in `otpauth://` URIs). */
export function base32Encode(data: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of data) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch);
    if (idx < 0) throw new Error('invalid base32');
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  /** Time step in seconds (RFC 6238 X); default 30. */
  step?: number;
  digits?: number;
  /** HMAC hash; default sha1 (what every authenticator app uses). */
  algorithm?: TotpAlgorithm;
}

export function hotp(secret: Buffer, counter: number, digits = 6, algorithm: TotpAlgorithm = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

export function totp(secret: Buffer, timeMs: number, opts: TotpOptions = {}): string {
  const step = opts.step ?? 30;
  return hotp(secret, Math.floor(timeMs / 1000 / step), opts.digits ?? 6, opts.algorithm ?? 'sha1');
}

/** Only steps after `after` (the last accepted one) count: a code is good once, never after a newer one. */
export function totpStepOf(
  secret: Buffer,
  code: string,
  timeMs: number,
  opts: TotpOptions & { window?: number; after?: number } = {},
): number | null {
  const digits = opts.digits ?? 6;
  const given = code.trim();
  if (!new RegExp(`^\\d{${digits}}$`).test(given)) return null;
  const step = opts.step ?? 30;
  const counter = Math.floor(timeMs / 1000 / step);
  const window = opts.window ?? 1;
  let found: number | null = null;
  for (let i = -window; i <= window; i++) {
    const expected = hotp(secret, counter + i, digits, opts.algorithm ?? 'sha1');
    // No early exit: every candidate is compared.
    const same = timingSafeEqual(Buffer.from(expected), Buffer.from(given));
    if (same && (opts.after === undefined || counter + i > opts.after)) found = counter + i;
  }
  return found;
}

export function verifyTotp(secret: Buffer, code: string, timeMs: number, opts: TotpOptions & { window?: number } = {}): boolean {
  return totpStepOf(secret, code, timeMs, opts) !== null;
}

export function otpauthUrl(issuer: string, account: string, secretBase32: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const q = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: '6', period: '30' });
  return `otpauth://totp/${label}?${q.toString()}`;
}
