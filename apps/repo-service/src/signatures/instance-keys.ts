import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { gitEnvironment } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../config/repo-settings.js';

/** An SSH public key signatures may be checked against: `type base64`, without a comment. */
export type SshKeyLine = string;

/** `type base64` of an OpenSSH public key line (a comment dropped), or null when it is not one. */
export function sshKeyLine(text: string): SshKeyLine | null {
  const [type, blob] = text.trim().split(/\s+/);
  if (!type || !blob || !/^[a-z0-9@.-]+$/.test(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return null;
  return `${type} ${blob}`;
}

/** An instance OpenPGP key: the configured id and the armored public key gpg exported. */
export interface InstanceGpgKey {
  /** The configured id, upper case when it is a (long) key id or fingerprint. */
  configured: string;
  /** The 16-digit key id the configured value names, when it is one (or a fingerprint); else ''. */
  keyId: string;
  armored: string;
}

const SPECIAL_KEYS = new Set(['', 'default', 'none']);
const GPG_TIMEOUT_MS = 10_000;

/**
 * The instance's own signing identity (`[repository.signing]`): SIGNING_NAME/EMAIL, the TRUSTED_SSH_KEYS, and the
 * instance key — an SSH public key file (`SIGNING_FORMAT = ssh`) or an OpenPGP key id exported from GNUPGHOME
 * (`openpgp`). Keys are read once and kept: a changed key takes a restart, as changed settings do.
 */
@Injectable()
export class InstanceSigningKeys {
  private readonly logger = new Logger(InstanceSigningKeys.name);
  private readonly trusted: SshKeyLine[];
  private ssh: Promise<SshKeyLine | null> | undefined;
  private gpg: Promise<InstanceGpgKey | null> | undefined;

  constructor(@Inject(REPO_SETTINGS) private readonly settings: RepoSettings) {
    this.trusted = [];
    for (const entry of settings.trustedSshKeys) {
      const line = sshKeyLine(entry);
      if (line) this.trusted.push(line);
      else this.logger.warn(`[repository.signing] TRUSTED_SSH_KEYS: ignoring an entry that is not an SSH public key`);
    }
  }

  /** SIGNING_NAME / SIGNING_EMAIL: the signer shown for instance and trusted keys. */
  get signer(): { name: string; email: string } {
    return { name: this.settings.signingName, email: this.settings.signingEmail };
  }

  get trustedSshKeys(): readonly SshKeyLine[] {
    return this.trusted;
  }

  private get configuredKey(): string | null {
    const key = this.settings.signingKey;
    return SPECIAL_KEYS.has(key.toLowerCase()) ? null : key;
  }

  /** The instance SSH key (`SIGNING_FORMAT = ssh`, SIGNING_KEY the public key's path), or null. */
  instanceSshKey(): Promise<SshKeyLine | null> {
    const path = this.configuredKey;
    if (this.settings.signingFormat !== 'ssh' || !path) return Promise.resolve(null);
    this.ssh ??= readFile(path, 'utf8').then(
      (text) => {
        const line = sshKeyLine(text);
        if (!line) this.logger.error(`[repository.signing] SIGNING_KEY ${path} is not an SSH public key`);
        return line;
      },
      (err: NodeJS.ErrnoException) => {
        this.logger.error(`[repository.signing] cannot read SIGNING_KEY ${path}: ${err.code ?? err.message}`);
        this.ssh = undefined; // a file that appears later is read then
        return null;
      },
    );
    return this.ssh;
  }

  /** The key id of the instance OpenPGP key as configured (for the owner lookup), or '' when there is none. */
  instanceGpgKeyId(): string {
    const key = this.configuredKey;
    if (this.settings.signingFormat !== 'openpgp' || !key) return '';
    return longKeyId(key);
  }

  /** The instance OpenPGP key (`SIGNING_FORMAT = openpgp`, SIGNING_KEY a key id), exported once, or null. */
  instanceGpgKey(): Promise<InstanceGpgKey | null> {
    const key = this.configuredKey;
    if (this.settings.signingFormat !== 'openpgp' || !key) return Promise.resolve(null);
    this.gpg ??= this.exportGpgKey(key).then(
      (armored) => ({ configured: key, keyId: longKeyId(key), armored }),
      (err: Error) => {
        this.logger.error(`[repository.signing] cannot export the OpenPGP key ${key}: ${err.message}`);
        this.gpg = undefined;
        return null;
      },
    );
    return this.gpg;
  }

  /** `gpg --export --armor -- <key>` with the service's GNUPGHOME (an argument vector, never a shell). */
  private exportGpgKey(key: string): Promise<string> {
    // git's minimal environment (PATH, HOME, C locale; none of the service's secrets) serves gpg as well.
    const env = { ...gitEnvironment(), ...(this.settings.gnupgHome ? { GNUPGHOME: this.settings.gnupgHome } : {}) };
    return new Promise((resolve, reject) => {
      execFile(
        'gpg',
        ['--batch', '--no-tty', '--export', '--armor', '--', key],
        { env, timeout: GPG_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err) return reject(new Error(stderr.trim() || err.message));
          if (!stdout.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----')) return reject(new Error('gpg exported no key'));
          resolve(stdout);
        },
      );
    });
  }
}

/** The 16-digit key id a configured key names (a long key id, or the tail of a fingerprint); '' otherwise. */
function longKeyId(key: string): string {
  const hex = key.replace(/^0x/i, '').replace(/\s+/g, '').toUpperCase();
  if (/^[0-9A-F]{16}$/.test(hex)) return hex;
  if (/^[0-9A-F]{40}$|^[0-9A-F]{64}$/.test(hex)) return hex.length === 40 ? hex.slice(24) : hex.slice(0, 16);
  return '';
}
