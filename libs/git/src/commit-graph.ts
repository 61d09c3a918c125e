import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runGitChecked } from './git-process.js';
import { isObjectId } from '@cairn/contracts';

/** `git gc` writes graphs without Bloom filters unless asked. */
export type CommitGraphState = 'missing' | 'without-filters' | 'with-filters';

const BLOOM_INDEX_CHUNK = 0x42494458;
const GRAPH_SIGNATURE = 0x43475048;

async function graphFileHasFilters(file: string): Promise<boolean | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  try {
    // Header (signature, version, hash version, chunk count, base count), then chunks + 1 entries of id(4) + offset(8).
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
  /** SIGTERM, so git removes its lock. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Generations make counts and date-limited logs cheap, Bloom filters `log -- <path>`; a filterless graph is rewritten once in full. */
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
