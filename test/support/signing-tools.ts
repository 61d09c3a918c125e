/**
 * The real `ssh-keygen -Y sign` and `gpg` for tests of key verification: key pairs in a caller's folder, signatures
 * over a message (a verification token). Every process is spawned with an argument vector, never through a shell;
 * gpg runs with a private GNUPGHOME and no agent prompt.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run, type KeyPair } from './git.js';

/** A fresh key pair made by `ssh-keygen` (`ed25519`, `ecdsa` or `rsa`) in `dir`. */
export async function sshKeyPair(dir: string, type: 'ed25519' | 'ecdsa' | 'rsa' = 'ed25519'): Promise<KeyPair> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `id_${type}_${Math.random().toString(36).slice(2, 8)}`);
  const r = await run('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', 'signer@cairn', '-f', file]);
  if (r.code !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return { publicKey: readFileSync(`${file}.pub`, 'utf8').trim(), privateKeyPath: file };
}

/** `ssh-keygen -Y sign -n <namespace>` over `message`: the armored signature. */
export async function sshSign(privateKeyPath: string, message: string, namespace = 'gitea'): Promise<string> {
  const r = await run('ssh-keygen', ['-Y', 'sign', '-n', namespace, '-f', privateKeyPath], { input: message });
  if (r.code !== 0) throw new Error(`ssh-keygen -Y sign failed: ${r.stderr}`);
  return r.stdout;
}

export interface GpgKey {
  /** The primary key's id (16 upper-case hex digits). */
  keyId: string;
  fingerprint: string;
  /** Ids of the subkeys. */
  subkeyIds: string[];
  armoredPublic: string;
}

/** A private gpg keyring in `home`. */
export class Gpg {
  constructor(readonly home: string) {
    mkdirSync(home, { recursive: true, mode: 0o700 });
  }

  private async gpg(args: string[], input?: string): Promise<string> {
    const r = await run('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
      env: { PATH: process.env.PATH, GNUPGHOME: this.home, HOME: this.home },
      input,
    });
    if (r.code !== 0) throw new Error(`gpg ${args[0]} failed: ${r.stderr}`);
    return r.stdout;
  }

  /**
   * `gpg --quick-gen-key` for `uid` (`Name <email>`): `ed25519` (ed25519 primary, cv25519 encryption subkey, and an
   * ed25519 signing subkey when `signingSubkey`) or `rsa` (rsa2048, one key).
   */
  async generate(uid: string, algo: 'ed25519' | 'rsa', opts: { signingSubkey?: boolean } = {}): Promise<GpgKey> {
    await this.gpg(['--quick-gen-key', uid, algo === 'ed25519' ? 'future-default' : 'rsa2048', 'default', 'never']);
    const fingerprint = (await this.list(uid)).fpr[0];
    if (opts.signingSubkey) await this.gpg(['--quick-add-key', fingerprint, 'ed25519', 'sign', 'never']);
    const { keyIds } = await this.list(fingerprint);
    return { keyId: keyIds[0], fingerprint, subkeyIds: keyIds.slice(1), armoredPublic: await this.gpg(['--armor', '--export', fingerprint]) };
  }

  private async list(who: string): Promise<{ fpr: string[]; keyIds: string[] }> {
    const out = await this.gpg(['--with-colons', '--list-keys', who]);
    const fpr: string[] = [];
    const keyIds: string[] = [];
    for (const line of out.split('\n')) {
      const f = line.split(':');
      if (f[0] === 'fpr') fpr.push(f[9]);
      if (f[0] === 'pub' || f[0] === 'sub') keyIds.push(f[4]);
    }
    return { fpr, keyIds };
  }

  /** `gpg --armor --detach-sign` of `message` by `who` (a key id; `!` suffix forces that exact (sub)key). */
  async detachSign(who: string, message: string): Promise<string> {
    const file = path.join(this.home, 'message');
    writeFileSync(file, message);
    return this.gpg(['--armor', '--detach-sign', '--local-user', who, '--output', '-', file]);
  }

  /** The armored secret key (to check that uploading it is refused). */
  exportSecret(fingerprint: string): Promise<string> {
    return this.gpg(['--armor', '--export-secret-keys', fingerprint]);
  }
}
