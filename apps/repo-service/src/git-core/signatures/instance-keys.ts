import { Inject, Injectable, Logger } from '@nestjs/common';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { InstanceSigningKey, isExplicitKey } from '../signing/instance-key.js';

/** An SSH public key signatures may be checked against: `type base64`, without a comment. */
export type SshKeyLine = string;

export function sshKeyLine(text: string): SshKeyLine | null {
  const [type, blob] = text.trim().split(/\s+/);
  if (!type || !blob || !/^[a-z0-9@.-]+$/.test(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return null;
  return `${type} ${blob}`;
}

export interface InstanceGpgKey {
  /** The 16-digit key id SIGNING_KEY names, when it is one (or a fingerprint); else ''. */
  keyId: string;
  armored: string;
}

// Trusted beside the accounts' keys: SIGNING_NAME/EMAIL, TRUSTED_SSH_KEYS, and the key SIGNING_KEY names (its public
// half read by the signing side), as Gitea verifies with the key it signs with; `default`/`none` count for nothing.
@Injectable()
export class InstanceSigningKeys {
  private readonly logger = new Logger(InstanceSigningKeys.name);
  private readonly trusted: SshKeyLine[] = [];

  constructor(
    @Inject(REPO_SETTINGS) private readonly settings: RepoSettings,
    private readonly instanceKey: InstanceSigningKey,
  ) {
    for (const entry of settings.trustedSshKeys) {
      const line = sshKeyLine(entry);
      if (line) this.trusted.push(line);
      else this.logger.warn('[repository.signing] TRUSTED_SSH_KEYS: ignoring an entry that is not an SSH public key');
    }
  }

  /** SIGNING_NAME / SIGNING_EMAIL: the signer shown for instance and trusted keys. */
  get signer(): { name: string; email: string } {
    return { name: this.settings.signingName, email: this.settings.signingEmail };
  }

  get trustedSshKeys(): readonly SshKeyLine[] {
    return this.trusted;
  }

  /** The instance SSH key (`SIGNING_FORMAT = ssh`, SIGNING_KEY the public key's path), or null. */
  async instanceSshKey(): Promise<SshKeyLine | null> {
    if (this.settings.signingFormat !== 'ssh' || !isExplicitKey(this.settings)) return null;
    const content = await this.publicKey();
    return content === null ? null : sshKeyLine(content);
  }

  instanceGpgKeyId(): string {
    if (this.settings.signingFormat !== 'openpgp' || !isExplicitKey(this.settings)) return '';
    return longKeyId(this.settings.signingKey);
  }

  /** The instance OpenPGP key (`SIGNING_FORMAT = openpgp`, SIGNING_KEY a key id), or null. */
  async instanceGpgKey(): Promise<InstanceGpgKey | null> {
    if (this.settings.signingFormat !== 'openpgp' || !isExplicitKey(this.settings)) return null;
    const armored = await this.publicKey();
    return armored === null ? null : { keyId: this.instanceGpgKeyId(), armored };
  }

  private async publicKey(): Promise<string | null> {
    try {
      return (await this.instanceKey.publicKey(null))?.content ?? null;
    } catch (err) {
      this.logger.error(`[repository.signing] the instance key cannot be read: ${(err as Error).message}`);
      return null;
    }
  }
}

/** The 16-digit key id a configured key names (a long key id, or the tail of a v4 fingerprint); '' otherwise. */
function longKeyId(key: string): string {
  const hex = key.replace(/^0x/i, '').replace(/\s+/g, '').toUpperCase();
  if (/^[0-9A-F]{16}$/.test(hex)) return hex;
  if (/^[0-9A-F]{40}$/.test(hex)) return hex.slice(24);
  if (/^[0-9A-F]{64}$/.test(hex)) return hex.slice(0, 16);
  return '';
}
