import { Inject, Injectable } from '@nestjs/common';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { DomainError, type SigningKeyFormat } from '@cairn/contracts';
import { ConfigError, type SettingsOf } from '@cairn/platform';
import { type CommitSigning, gitConfigValue, gitEnvironment } from '@cairn/git';
import { REPO_SETTINGS } from '../../foundation/config/repo-settings.js';
import { runSigningTool } from './signing-tools.js';
import type { SigningFormat, signingSettingsSpec } from '../../foundation/config/signing-settings.js';

export type SigningSettings = SettingsOf<typeof signingSettingsSpec>;

/** The key Cairn signs with: format, key (GPG key id or SSH public key path) and the identity that signs. */
export type InstanceKey = Pick<CommitSigning, 'format' | 'key' | 'signer'>;

export interface PublicSigningKey {
  format: SigningFormat;
  content: string;
}

const SSH_PUBLIC_KEY = /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) [A-Za-z0-9+/]+={0,3}( .*)?$/;
/** What gpg accepts as a key specification here (id, fingerprint, e-mail, name): no option, no control character. */
// eslint-disable-next-line no-control-regex
const GPG_KEY_SPEC = /^[^\s-][^\x00-\x1f]*$/;

/** SIGNING_KEY names the key itself (not `none` or `default`). */
export function isExplicitKey(settings: Pick<SigningSettings, 'signingKey'>): boolean {
  return !['', 'none', 'default'].includes(settings.signingKey);
}

/** The private key beside an SSH public key file (`/path/key.pub` → `/path/key`). */
export function sshPrivateKeyPath(publicKeyPath: string): string {
  return publicKeyPath.replace(/\.pub$/, '');
}

/** Refuses start (a {@link ConfigError}) when SIGNING_KEY names a key Cairn cannot sign with. */
export function validateInstanceSigningKey(settings: SigningSettings): void {
  if (!isExplicitKey(settings)) return;
  const key = settings.signingKey;
  const bad = (why: string) => new ConfigError(`[repository.signing] SIGNING_KEY: ${why}`);
  if (settings.signingFormat === 'ssh') {
    if (!isAbsolute(key) || !key.endsWith('.pub')) {
      throw bad(`with SIGNING_FORMAT = ssh it must be the absolute path of an SSH public key file (…/key.pub), not ${JSON.stringify(key)}`);
    }
    let content: string;
    try {
      content = readFileSync(key, 'utf8').trim();
    } catch (err) {
      throw bad(`cannot read the SSH public key ${key}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    if (!SSH_PUBLIC_KEY.test(content)) throw bad(`${key} is not an OpenSSH public key (expected "ssh-ed25519 AAAA…")`);
    const privateKey = sshPrivateKeyPath(key);
    if (!statSync(privateKey, { throwIfNoEntry: false })?.isFile()) {
      throw bad(`the private key of ${key} is missing: expected it at ${privateKey}`);
    }
    return;
  }
  if (!GPG_KEY_SPEC.test(key)) throw bad(`${JSON.stringify(key)} is not a GPG key id`);
  const listed = spawnSync('gpg', ['--batch', '--with-colons', '--list-secret-keys', '--', key], {
    env: gitEnvironment(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (listed.error) throw bad(`gpg cannot be run to check the key (${listed.error.message}); install gnupg`);
  if (listed.status !== 0 || !/^sec:/m.test(listed.stdout)) {
    throw bad(`no secret GPG key ${JSON.stringify(key)} in the keyring of repo-service (GNUPGHOME, else ~/.gnupg)`);
  }
}

// Gitea's `SigningKey`: `none` → none; `default` → the git configuration (repository, then the server user's
// global files, which Cairn's git never reads itself), only with `commit.gpgsign`; else SIGNING_KEY in SIGNING_FORMAT.
@Injectable()
export class InstanceSigningKey {
  private explicitPublicKey: Promise<string> | null = null;

  constructor(@Inject(REPO_SETTINGS) private readonly settings: SigningSettings) {}

  /** The key for commits in the repository at `dir` (null: the instance-wide answer), or null: nothing signs. */
  async resolve(dir: string | null): Promise<InstanceKey | null> {
    const s = this.settings;
    if (s.signingKey === 'none') return null;
    if (isExplicitKey(s)) {
      return { format: s.signingFormat, key: s.signingKey, signer: { name: s.signingName, email: s.signingEmail } };
    }
    if ((await this.gitConfig(dir, 'commit.gpgsign', true)) !== 'true') return null;
    const key = await this.gitConfig(dir, 'user.signingkey');
    if (!key) return null;
    const format = (await this.gitConfig(dir, 'gpg.format')) === 'ssh' ? 'ssh' : 'openpgp';
    return {
      format,
      key,
      signer: { name: (await this.gitConfig(dir, 'user.name')) ?? '', email: (await this.gitConfig(dir, 'user.email')) ?? '' },
    };
  }

  /** The public half of the key `resolve(dir)` names (an OpenSSH line or an armored OpenPGP key), or null. */
  async publicKey(dir: string | null): Promise<PublicSigningKey | null> {
    const key = await this.resolve(dir);
    if (!key) return null;
    if (isExplicitKey(this.settings)) {
      this.explicitPublicKey ??= this.readPublicKey(key);
      return { format: key.format, content: await this.explicitPublicKey };
    }
    return { format: key.format, content: await this.readPublicKey(key) };
  }

  /** Gitea's `getSigningKey`: the public key in the asked `format`, else NOT_FOUND saying why. */
  async publicKeyIn(format: SigningKeyFormat, dir: string | null): Promise<string> {
    const key = await this.publicKey(dir);
    if (!key) throw DomainError.notFound('no signing key');
    if (key.format !== format) throw DomainError.notFound(`signing key format is ${key.format}`);
    return key.content;
  }

  private async readPublicKey(key: InstanceKey): Promise<string> {
    if (key.format === 'ssh') {
      // git's `user.signingkey` for ssh may be the key itself (`key::ssh-ed25519 …`) or a key file.
      if (key.key.startsWith('key::')) return `${key.key.slice(5).trim()}\n`;
      const path = key.key.endsWith('.pub') ? key.key : `${key.key}.pub`;
      return `${(await readFile(path, 'utf8')).trim()}\n`;
    }
    if (!GPG_KEY_SPEC.test(key.key)) throw new Error('the configured GPG signing key is not a key id');
    const run = await runSigningTool('gpg', ['--batch', '--armor', '--export', '--', key.key]);
    if (run.code !== 0 || !run.stdout.includes('BEGIN PGP PUBLIC KEY BLOCK')) {
      throw new Error(`gpg --export of the signing key failed: ${run.stderr.slice(0, 300)}`);
    }
    return run.stdout;
  }

  /** One value of the git configuration that applies to `dir` (or to the server when null); undefined when unset. */
  private async gitConfig(dir: string | null, name: string, bool = false): Promise<string | undefined> {
    const sources = [
      ...(dir ? [{ repo: dir }] : []),
      { file: join(homedir(), '.gitconfig') },
      { file: join(homedir(), '.config', 'git', 'config') },
    ];
    for (const source of sources) {
      const value = await gitConfigValue(source, name, bool);
      if (value !== undefined) return value;
    }
    return undefined;
  }
}
