import type { CatFileCommand, CatFileObject, CatFilePool } from './cat-file-pool.js';
import { hashBytesOf, parseGitmodules, parseTree, type TreeEntry } from './tree-object.js';
import { baseName, parentOf } from './tree-path.js';

function treeObject(commit: string, dir: string): string {
  return dir === '' ? `${commit}^{tree}` : `${commit}:${dir}`;
}

/** Each parent directory is read once, all in one pipelined cat-file round trip; the root is a `dir` entry named `''`. */
export async function lookupPaths(
  pool: CatFilePool,
  repoPath: string,
  commit: string,
  paths: string[],
): Promise<(TreeEntry | null)[]> {
  const dirs = [...new Set(paths.filter((p) => p !== '').map(parentOf))];
  const needRoot = paths.includes('');
  const commands: CatFileCommand[] = dirs.map((d) => ({ op: 'contents', object: treeObject(commit, d) }));
  if (needRoot) commands.push({ op: 'info', object: `${commit}^{tree}` });
  const answers = commands.length ? await pool.run(repoPath, commands) : [];
  const hashBytes = hashBytesOf(commit);
  const trees = new Map<string, Map<string, TreeEntry>>();
  dirs.forEach((d, i) => {
    const a = answers[i];
    if (a?.type !== 'tree' || !a.data) return;
    trees.set(d, new Map(parseTree(a.data, hashBytes).map((e) => [e.name, e])));
  });
  const root = needRoot ? answers[answers.length - 1] : null;
  return paths.map((p) => {
    if (p === '') return root ? { mode: '40000', name: '', oid: root.oid, kind: 'dir' } : null;
    return trees.get(parentOf(p))?.get(baseName(p)) ?? null;
  });
}

export async function listDirectory(
  pool: CatFilePool,
  repoPath: string,
  commit: string,
  dir: string,
): Promise<TreeEntry[] | null> {
  const tree = await pool.one(repoPath, { op: 'contents', object: treeObject(commit, dir) });
  if (tree?.type !== 'tree' || !tree.data) return null;
  return parseTree(tree.data, hashBytesOf(commit));
}

export async function objectInfos(
  pool: CatFilePool,
  repoPath: string,
  oids: string[],
): Promise<Map<string, CatFileObject>> {
  const unique = [...new Set(oids)];
  const answers = unique.length
    ? await pool.run(
        repoPath,
        unique.map((oid) => ({ op: 'info', object: oid })),
      )
    : [];
  const out = new Map<string, CatFileObject>();
  unique.forEach((oid, i) => {
    const a = answers[i];
    if (a) out.set(oid, a);
  });
  return out;
}

/** The caller has checked their sizes. */
export async function readBlobs(pool: CatFilePool, repoPath: string, oids: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(oids)];
  const answers = unique.length
    ? await pool.run(
        repoPath,
        unique.map((oid) => ({ op: 'contents', object: oid })),
      )
    : [];
  const out = new Map<string, Buffer>();
  unique.forEach((oid, i) => {
    const a = answers[i];
    if (a?.type === 'blob' && a.data) out.set(oid, a.data);
  });
  return out;
}

export async function submoduleUrls(pool: CatFilePool, repoPath: string, commit: string): Promise<Map<string, string>> {
  const info = await pool.one(repoPath, { op: 'info', object: `${commit}:.gitmodules` });
  if (info?.type !== 'blob' || info.size > 1024 * 1024) return new Map();
  const obj = await pool.one(repoPath, { op: 'contents', object: info.oid });
  if (obj?.type !== 'blob' || !obj.data) return new Map();
  return parseGitmodules(obj.data.toString('utf8'));
}
