import type { CatFileCommand, CatFilePool } from './cat-file-pool.js';
import { ABBREVIATED_OBJECT_ID_PATTERN, isObjectId, isValidRefNameAfterPrefix } from '@cairn/contracts';

export function assertOid(oid: string): string {
  if (!isObjectId(oid)) throw new Error(`not an object id: ${JSON.stringify(oid).slice(0, 80)}`);
  return oid;
}

/** Any branch git allows, `-x` included: the full ref is never an option. */
export function branchRef(branch: string): string {
  if (!isValidRefNameAfterPrefix(branch)) throw new Error(`invalid branch name: ${JSON.stringify(branch).slice(0, 120)}`);
  return `refs/heads/${branch}`;
}

export function pullHeadRef(index: number): string {
  if (!Number.isSafeInteger(index) || index < 1) throw new Error(`invalid pull request number ${index}`);
  return `refs/pull/${index}/head`;
}

export interface ResolvedRef {
  kind: 'branch' | 'tag' | 'commit';
  name: string;
  /** Used in `?ref=` of self links. */
  input: string;
  commit: string;
}

function candidates(input: string): { kind: ResolvedRef['kind']; name: string; command: CatFileCommand }[] {
  const out: { kind: ResolvedRef['kind']; name: string; command: CatFileCommand }[] = [];
  const info = (object: string): CatFileCommand => ({ op: 'info', object: `${object}^{commit}` });
  if (input.startsWith('refs/heads/')) {
    const name = input.slice('refs/heads/'.length);
    if (isValidRefNameAfterPrefix(name)) out.push({ kind: 'branch', name, command: info(input) });
    return out;
  }
  if (input.startsWith('refs/tags/')) {
    const name = input.slice('refs/tags/'.length);
    if (isValidRefNameAfterPrefix(name)) out.push({ kind: 'tag', name, command: info(input) });
    return out;
  }
  if (input.startsWith('refs/')) return out; // other namespaces (pull, notes…) are never exposed
  // Branch and tag names reach git only as full refs on cat-file's stdin: any name git allows (`-x` too) works.
  if (isValidRefNameAfterPrefix(input)) {
    out.push({ kind: 'branch', name: input, command: info(`refs/heads/${input}`) });
    out.push({ kind: 'tag', name: input, command: info(`refs/tags/${input}`) });
  }
  if (ABBREVIATED_OBJECT_ID_PATTERN.test(input)) out.push({ kind: 'commit', name: input, command: info(input.toLowerCase()) });
  return out;
}

/** Branch, tag, then commit id, as Gitea's `ResolveRefCommit`; invalid input is null without reaching git. */
export async function resolveRef(pool: CatFilePool, repoPath: string, input: string): Promise<ResolvedRef | null> {
  const cands = candidates(input);
  if (cands.length === 0) return null;
  const answers = await pool.run(
    repoPath,
    cands.map((c) => c.command),
  );
  for (let i = 0; i < cands.length; i++) {
    const a = answers[i];
    if (a && a.type === 'commit') return { kind: cands[i].kind, name: cands[i].name, input, commit: a.oid };
  }
  return null;
}

const MAX_REF_SEGMENTS = 8;

/** As Gitea's legacy raw route: shortest branch prefix, then shortest tag, then a commit id; else the whole input is a path. */
export async function resolveRefPrefix(
  pool: CatFilePool,
  repoPath: string,
  fullPath: string,
): Promise<{ ref: ResolvedRef; path: string } | null> {
  const segments = fullPath.split('/');
  const tries: { kind: ResolvedRef['kind']; name: string; rest: string; command: CatFileCommand }[] = [];
  const limit = Math.min(segments.length - 1, MAX_REF_SEGMENTS);
  for (const kind of ['branch', 'tag'] as const) {
    for (let i = 1; i <= limit; i++) {
      const name = segments.slice(0, i).join('/');
      if (!isValidRefNameAfterPrefix(name)) continue;
      const object = `refs/${kind === 'branch' ? 'heads' : 'tags'}/${name}^{commit}`;
      tries.push({ kind, name, rest: segments.slice(i).join('/'), command: { op: 'info', object } });
    }
  }
  if (segments.length > 1 && ABBREVIATED_OBJECT_ID_PATTERN.test(segments[0]) && segments[0].length >= 7) {
    const name = segments[0];
    const object = `${name.toLowerCase()}^{commit}`;
    tries.push({ kind: 'commit', name, rest: segments.slice(1).join('/'), command: { op: 'info', object } });
  }
  if (tries.length === 0) return null;
  const answers = await pool.run(
    repoPath,
    tries.map((t) => t.command),
  );
  for (let i = 0; i < tries.length; i++) {
    const a = answers[i];
    if (a && a.type === 'commit') {
      const t = tries[i];
      return { ref: { kind: t.kind, name: t.name, input: t.name, commit: a.oid }, path: t.rest };
    }
  }
  return null;
}
