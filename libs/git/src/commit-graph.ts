import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runGitChecked } from './git-process.js';
import { isObjectId } from '@cairn/contracts';

/**
 * What a repository's commit-graph offers: none at all, one without changed-path Bloom filters (what `git gc`
 * writes when nothing asked for filters), or one whose every layer has them.
 */
export type CommitGraphState = 'missing' | 'without-filters' | 'with-filters';

/** Chunk id of the Bloom filter index (`BIDX`) in a commit-graph file. */
const BLOOM_INDEX_CHUNK = 0x42494458;
/** `CGPH`: the signature every commit-graph file starts with. */
const GRAPH_SIGNATURE = 0x43475048;

/** True when a commit-graph file has a Bloom filter index; null when the file is missing or not a commit-graph. */
async function graphFileHasFilters(file: string): Promise<boolean | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    // Header: signature, version, hash version, chunk count, base graph count; then (chunks + 1) table entries of
    // a 4-byte chunk id and an 8-byte offset.
    const header = Buffer.alloc(8);
    if ((await handle.read(header, 0, 8, 0)).bytesRead < 8 || header.readUInt32BE(0) !== GRAPH_SIGNATURE) return null;
    const chunks = header[6];
    const table = Buffer.alloc(chunks * 12);
    if ((await handle.read(table, 0, table.length, 8)).bytesRead < table.length) return null;
    for (let i = 0; i < chunks; i++) if (table.readUInt32BE(i * 12) === BLOOM_INDEX_CHUNK) return true;
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * Inspects the commit-graph git would load, in git's order: the single `objects/info/commit-graph` file when it
 * exists, otherwise the layers listed in `objects/info/commit-graphs/commit-graph-chain`.
 */
export async function commitGraphState(repoPath: string): Promise<CommitGraphState> {
  const info = path.join(repoPath, 'objects', 'info');
  const single = await graphFileHasFilters(path.join(info, 'commit-graph'));
  if (single !== null) return single ? 'with-filters' : 'without-filters';
  const chain = await readFile(path.join(info, 'commit-graphs', 'commit-graph-chain'), 'utf8').catch(() => '');
  const layers = chain.split('\n').filter((l) => isObjectId(l));
  if (layers.length === 0) return 'missing';
  for (const layer of layers) {
    const file = path.join(info, 'commit-graphs', `graph-${layer}.graph`);
    if (!(await graphFileHasFilters(file))) return 'without-filters';
  }
  return 'with-filters';
}

export interface CommitGraphWriteOptions {
  /** Stop git (SIGTERM, so it removes its lock) after this long. */
  timeoutMs?: number;
  /** Stop git (SIGTERM) when aborted, e.g. at shutdown. */
  signal?: AbortSignal;
}

/**
 * Brings the repository's commit-graph up to date, as hosting housekeeping (and git's own `maintenance` commit-graph
 * task) does: every reachable commit with its generation number (cheap `rev-list --count` and date-limited
 * `git log` walks: commits are read from the graph, not inflated from the object store) and a changed-path Bloom
 * filter (`git log -- <path>` skips commits that cannot have touched the path without diffing their trees; git 2.39
 * uses the filters for a single pathspec only).
 *
 * Incremental (`--split`): a run after a push writes a small layer with the new commits only, and git merges layers
 * as they grow (each at most half the size of the one below). A graph without Bloom filters — written by `git gc`,
 * which never computes them on its own — is rewritten once in full (`--split=replace`); git keeps filters from then
 * on, `git gc` included. Returns the mode it ran in.
 */
export async function maintainCommitGraph(
  repoPath: string,
  options: CommitGraphWriteOptions = {},
): Promise<'split' | 'replace'> {
  const mode = (await commitGraphState(repoPath)) === 'without-filters' ? 'replace' : 'split';
  await runGitChecked(
    repoPath,
    [
      'commit-graph',
      'write',
      '--reachable',
      '--changed-paths',
      mode === 'replace' ? '--split=replace' : '--split',
      '--no-progress',
    ],
    {
      timeoutMs: options.timeoutMs ?? 10 * 60_000,
      killSignal: 'SIGTERM',
      signal: options.signal,
      maxStdoutBytes: 1 << 20,
    },
  );
  return mode;
}
