import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { ScryptParams } from '../config/identity-settings.js';

const SALT_BYTES = 16;
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function options({ N, r, p }: ScryptParams): ScryptOptions {
  // Node refuses unless maxmem exceeds ~128·N·r·p; leave headroom.
  return { N, r, p, maxmem: 256 * N * r * p + 16 * 1024 * 1024 };
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
  // Bounds keep a corrupted row from turning one login into a memory bomb.
  if (!(N >= 2 && N <= 1_048_576 && (N & (N - 1)) === 0 && r >= 1 && r <= 32 && p >= 1 && p <= 16)) return null;
  const salt = Buffer.from(parts[4], 'base64');
  const hash = Buffer.from(parts[5], 'base64');
  if (salt.length < 8 || hash.length < 16) return null;
  return { params: { N, r, p }, salt, hash };
}

/** scrypt with a random salt; cost parameters stored with the hash (`scrypt$N$r$p$salt$hash`), so they can rise. */
export class PasswordHasher {
  private dummy?: Promise<string>;

  constructor(private readonly params: ScryptParams) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await scrypt(password, salt, KEY_BYTES, options(this.params));
    const { N, r, p } = this.params;
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async verify(password: string, stored: string | null | undefined): Promise<boolean> {
    const parsed = stored ? parse(stored) : null;
    if (!parsed) return false;
    const key = await scrypt(password, parsed.salt, parsed.hash.length, options(parsed.params));
    return timingSafeEqual(key, parsed.hash);
  }

  /** Spends the same work as a real verification, so an unknown user name is not told apart by timing. */
  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash('cairn-dummy-password');
    await this.verify(password, await this.dummy);
  }

  /** True when a stored hash uses other parameters than the current ones (rehash on next successful login). */
  needsRehash(stored: string): boolean {
    const parsed = parse(stored);
    return !parsed || parsed.params.N !== this.params.N || parsed.params.r !== this.params.r || parsed.params.p !== this.params.p;
  }
}
