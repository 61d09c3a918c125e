import { Inject, Injectable } from '@nestjs/common';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { DeployKeysRepository } from './deploy-keys.repository.js';

/** What a deploy key may do on its repository, once the SSH server matched it. */
export interface DeployKeyGrant {
  keyId: number;
  readOnly: boolean;
  repo: { id: number; ownerId: number; ownerName: string; name: string };
}

/** A key reaches only its own repositories; apart from the API service so the transport needs only the database. */
@Injectable()
export class DeployKeyGate {
  constructor(
    private readonly keys: DeployKeysRepository,
    @Inject(REPO_SETTINGS) private readonly settings: RepoSettings,
  ) {}

  /** Whether any repository has this key: the SSH server then accepts it, and decides per command. */
  isDeployKey(fingerprint: string): Promise<boolean> {
    return this.keys.fingerprintUsed(fingerprint);
  }

  async grant(fingerprint: string, owner: string, name: string): Promise<DeployKeyGrant | null> {
    const row = await this.keys.findForRepo(fingerprint, owner, name);
    return row ? { keyId: row.id, readOnly: row.readOnly, repo: row.repository } : null;
  }

  /** The key served a git command: throttled `last_used_at`, as user keys. */
  touch(keyId: number): Promise<void> {
    return this.keys.touch(keyId, this.settings.keyLastUsedUpdateIntervalMs);
  }
}
