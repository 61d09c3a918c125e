import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { SettingSpec } from '../config/settings.js';

/** Used when `[security] SECRET_KEY` is not set: fine for development; production refuses to start with it. */
export const DEV_SECRET_KEY = 'cairn-insecure-development-secret-key-change-me';

/**
 * `[security] SECRET_KEY`: the key that encrypts the secrets kept in the database (webhook secrets, two-factor
 * secrets, Actions secrets, registry tokens); production refuses to start while it is unset or the development value.
 */
// Shared: each service that keeps secrets declares it in its spec as `secretKey: secretKeySetting`.
export const secretKeySetting: SettingSpec<string> = {
  section: 'security',
  key: 'SECRET_KEY',
  default: DEV_SECRET_KEY,
  secret: true,
  parse: (raw: string) => {
    if (raw.trim().length < 16) throw new Error('must be at least 16 characters');
    return raw.trim();
  },
};

/** Builds the box for a purpose, warning when production runs on the built-in development key. */
export function createSecretBox(secretKey: string, purpose: string, runMode: string, logger: LoggerService): SecretBox {
  if (secretKey === DEV_SECRET_KEY && runMode === 'prod') {
    logger.warn(
      `[security] SECRET_KEY (CAIRN__SECURITY__SECRET_KEY) is not set: ${purpose} secrets are encrypted with the ` +
        'built-in development key. Set a long random value before production use.',
    );
  }
  return new SecretBox(secretKey, purpose);
}

/**
 * Authenticated encryption of small secrets at rest (two-factor seeds, hook secrets, authorization headers):
 * AES-256-GCM under a key derived with HKDF-SHA256 from `[security] SECRET_KEY` (salt `cairn-secret-box`, info
 * `cairn/<purpose>/v1`), so one key serves every service and each purpose gets its own subkey. Sealed form:
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); tampering or a different key fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, 'cairn-secret-box', `cairn/${purpose}/v1`, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ct] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || ct === undefined) {
      throw new Error('unsupported sealed secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Seals a value, keeping "absent" (null/empty) as null. */
  sealOptional(plaintext: string | undefined | null): string | null {
    return plaintext ? this.seal(plaintext) : null;
  }

  openOptional(sealed: string | null | undefined): string {
    return sealed ? this.open(sealed) : '';
  }
}
