import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { LoggerService } from '@nestjs/common';
import type { SettingSpec } from '../config/settings.js';

/** Fine for development; production refuses to start with it. */
export const DEV_SECRET_KEY = 'cairn-insecure-development-secret-key-change-me';

/** The key that encrypts secrets kept in the database; production refuses to start while it is unset or the development value. */
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

export function createSecretBox(secretKey: string, purpose: string, runMode: string, logger: LoggerService): SecretBox {
  if (secretKey === DEV_SECRET_KEY && runMode === 'prod') {
    logger.warn(
      `[security] SECRET_KEY (CAIRN__SECURITY__SECRET_KEY) is not set: ${purpose} secrets are encrypted with the ` +
        'built-in development key. Set a long random value before production use.',
    );
  }
  return new SecretBox(secretKey, purpose);
}

/** AES-256-GCM under an HKDF-SHA256 subkey per purpose of `[security] SECRET_KEY`; sealed as `v1.<iv>.<tag>.<ciphertext>`. */
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

  /** Keeps "absent" (null/empty) as null. */
  sealOptional(plaintext: string | undefined | null): string | null {
    return plaintext ? this.seal(plaintext) : null;
  }

  openOptional(sealed: string | null | undefined): string {
    return sealed ? this.open(sealed) : '';
  }
}
