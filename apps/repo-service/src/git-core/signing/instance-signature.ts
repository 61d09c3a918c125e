import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessage, readKey, readSignature, verify } from 'openpgp';
import { readRawCommit, splitCommitSignature } from '@cairn/git';
import type { PublicSigningKey } from './instance-key.js';
import { runSigningTool } from './signing-tools.js';

export interface SignedCommit {
  /** The armored signature (`-----BEGIN SSH SIGNATURE-----` or `-----BEGIN PGP SIGNATURE-----`). */
  signature: string;
  /** The commit object without its signature header: the bytes the signature covers. */
  payload: Buffer;
}

/** Null when unsigned or the signature is over the size read (the one rule: `splitCommitSignature`). */
export function splitSignedCommit(raw: Buffer): SignedCommit | null {
  const split = splitCommitSignature(raw);
  return split && !split.tooLarge ? { signature: split.armored, payload: split.payload } : null;
}

/** Whether `signature` over `payload` was made by the (public) instance key. */
export async function signedByKey(signed: SignedCommit, key: PublicSigningKey): Promise<boolean> {
  if (key.format === 'ssh') {
    if (!signed.signature.startsWith('-----BEGIN SSH SIGNATURE-----')) return false;
    const dir = await mkdtemp(join(tmpdir(), 'cairn-sshsig-'));
    try {
      const publicKey = key.content.trim().split(/\s+/).slice(0, 2).join(' ');
      await writeFile(join(dir, 'allowed'), `instance namespaces="git" ${publicKey}\n`);
      await writeFile(join(dir, 'sig'), signed.signature);
      const run = await runSigningTool(
        'ssh-keygen',
        ['-Y', 'verify', '-f', join(dir, 'allowed'), '-I', 'instance', '-n', 'git', '-s', join(dir, 'sig')],
        signed.payload,
      );
      return run.code === 0;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (!signed.signature.startsWith('-----BEGIN PGP SIGNATURE-----')) return false;
  try {
    const result = await verify({
      message: await createMessage({ binary: new Uint8Array(signed.payload) }),
      signature: await readSignature({ armoredSignature: signed.signature }),
      verificationKeys: await readKey({ armoredKey: key.content }),
    });
    if (result.signatures.length === 0) return false;
    await result.signatures[0].verified; // rejects when the signature does not verify or names another key
    return true;
  } catch {
    return false;
  }
}

/** Whether the commit `oid` of the repository at `dir` carries a signature of the instance key. */
export async function commitSignedByKey(dir: string, oid: string, key: PublicSigningKey): Promise<boolean> {
  const raw = await readRawCommit(dir, oid);
  if (!raw) return false;
  const signed = splitSignedCommit(raw);
  return signed ? signedByKey(signed, key) : false;
}
