import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run, type Git, type KeyPair } from './git.js';

/** A commit object as `git cat-file commit` prints it, and whether it carries a signature. */
export async function commitObject(git: Git, bare: string, sha: string): Promise<{ raw: string; signed: boolean; committerEmail: string }> {
  const raw = await git.ok(['--git-dir', bare, 'cat-file', 'commit', sha]);
  return {
    raw,
    signed: /^gpgsig /m.test(raw),
    committerEmail: /^committer .* <([^>]*)> \d+ [+-]\d{4}$/m.exec(raw)?.[1] ?? '',
  };
}

/** `git verify-commit` of an SSH signature, trusting exactly `publicKey` (an OpenSSH public key line). */
export async function verifiesWithSshKey(git: Git, bare: string, sha: string, publicKey: string, dir: string): Promise<boolean> {
  mkdirSync(dir, { recursive: true });
  const allowed = path.join(dir, 'allowed_signers');
  writeFileSync(allowed, `gitea@fake.local namespaces="git" ${publicKey.trim()}\n`);
  const r = await git.try(['--git-dir', bare, '-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', sha]);
  return r.code === 0;
}

/** `git verify-commit` of an OpenPGP signature with the keyring in `gnupgHome`. */
export async function verifiesWithGpg(git: Git, bare: string, sha: string, gnupgHome: string): Promise<boolean> {
  const r = await git.try(['--git-dir', bare, 'verify-commit', sha], { env: { GNUPGHOME: gnupgHome } });
  return r.code === 0;
}

/** A fresh OpenPGP signing key `gitea <gitea@fake.local>` (ed25519, no passphrase) in a new GNUPGHOME. */
export async function generateGpgKey(gnupgHome: string): Promise<{ gnupgHome: string; fingerprint: string }> {
  mkdirSync(gnupgHome, { recursive: true, mode: 0o700 });
  const env = { PATH: process.env.PATH, GNUPGHOME: gnupgHome };
  const made = await run('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'gitea <gitea@fake.local>', 'ed25519', 'sign', 'never'], { env });
  if (made.code !== 0) throw new Error(`gpg --quick-gen-key failed: ${made.stderr}`);
  const listed = await run('gpg', ['--batch', '--with-colons', '--list-secret-keys'], { env });
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(listed.stdout)?.[1];
  if (!fingerprint) throw new Error(`no key listed: ${listed.stdout}${listed.stderr}`);
  return { gnupgHome, fingerprint };
}

/** Imports an armored public key into a fresh keyring (to verify with nothing but what a server published). */
export async function importGpgKey(gnupgHome: string, armored: string): Promise<void> {
  mkdirSync(gnupgHome, { recursive: true, mode: 0o700 });
  const r = await run('gpg', ['--batch', '--import'], { env: { PATH: process.env.PATH, GNUPGHOME: gnupgHome }, input: armored });
  if (r.code !== 0) throw new Error(`gpg --import failed: ${r.stderr}`);
}

/** How a test commit is signed: with an SSH key pair (`gpg.format=ssh`) or an OpenPGP key id from `gnupgHome`. */
export interface CommitSigning {
  ssh?: KeyPair;
  gpg?: string;
}

/**
 * `git commit --allow-empty` of the index in `cwd` by `name <email>` (author and committer), signed by the real
 * `git commit -S` as asked; returns the new commit's id.
 */
export async function commitSignedAs(
  git: Git,
  cwd: string,
  message: string,
  who: { name: string; email: string },
  sign: CommitSigning,
  gnupgHome: string,
): Promise<string> {
  const args = ['commit', '-q', '--allow-empty', '-m', message];
  if (sign.ssh) args.unshift('-c', 'gpg.format=ssh', '-c', `user.signingkey=${sign.ssh.privateKeyPath}.pub`);
  if (sign.gpg) args.unshift('-c', 'gpg.format=openpgp', '-c', `user.signingkey=${sign.gpg}`);
  if (sign.ssh || sign.gpg) args.push('-S');
  const id = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email };
  await git.ok(args, { cwd, env: { ...id, GNUPGHOME: gnupgHome } });
  return git.ok(['rev-parse', 'HEAD'], { cwd });
}
