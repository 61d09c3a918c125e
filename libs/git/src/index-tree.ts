import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isObjectId, zeroIdLike } from '@cairn/contracts';
import { runGit, runGitText } from './git-process.js';
import { assertOid } from './refs.js';

export type TreeEdit = { path: string; remove: true } | { path: string; mode: '100644' | '100755' | '120000'; blob: string };

export async function writeBlob(dir: string, content: string | Buffer): Promise<string> {
  return assertOid((await runGitText(dir, ['hash-object', '-w', '--stdin'], { input: content })).trim());
}

/** A throw-away index (`GIT_INDEX_FILE`): `read-tree`, one `update-index -z --index-info`, `write-tree`; only objects are written. */
export async function writeEditedTree(dir: string, base: string | null, edits: TreeEdit[]): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-index-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await runGitText(dir, base ? ['read-tree', '--end-of-options', assertOid(base)] : ['read-tree', '--empty'], { env });
    const records = edits.map((e) => {
      if ('remove' in e) return `0 ${zeroIdLike(base ?? 40)}\t${e.path}\0`;
      if (!isObjectId(e.blob)) throw new Error(`not a blob id: ${e.blob}`);
      return `${e.mode} ${e.blob}\t${e.path}\0`;
    });
    if (records.length) {
      const r = await runGit(dir, ['update-index', '-z', '--index-info'], { env, input: records.join('') });
      // git skips paths it will not write ("Ignoring path …") and still succeeds: a commit must never lose a file.
      if (r.code !== 0 || /ignoring path/i.test(r.stderr)) throw new Error(`git update-index failed: ${r.stderr.trim()}`);
    }
    return assertOid((await runGitText(dir, ['write-tree'], { env })).trim());
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
