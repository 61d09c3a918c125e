import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { isObjectId } from '@cairn/contracts';
import { type CatFilePool, spawnArchive } from '@cairn/git';
import { sharedCatFilePool } from '../git/shared-pool.js';
import { plainAnswer } from './plain-answer.js';

export type ArchiveFormat = 'zip' | 'tar.gz';

export function isArchiveFormat(value: string | null): value is ArchiveFormat {
  return value === 'zip' || value === 'tar.gz';
}

/** zip from git itself, tar.gz gzipped here (no external process); nothing buffered; a client that leaves kills git. */
export async function streamArchive(
  repoPath: string,
  commit: string,
  format: ArchiveFormat,
  prefix: string,
  res: ServerResponse,
  pool: CatFilePool = sharedCatFilePool(),
): Promise<void> {
  if (!isObjectId(commit)) return plainAnswer(res, 400, 'invalid commit id');
  if (!prefix || /[/\\\0]/.test(prefix) || prefix.startsWith('-') || prefix === '.' || prefix === '..') {
    return plainAnswer(res, 400, 'invalid prefix');
  }
  const info = await pool.one(repoPath, { op: 'info', object: commit }).catch(() => null);
  if (info?.type !== 'commit') return plainAnswer(res, 404, 'not found');
  const child = spawnArchive(repoPath, commit, format === 'zip' ? 'zip' : 'tar', prefix);
  res.once('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  res.writeHead(200, { 'content-type': format === 'zip' ? 'application/zip' : 'application/gzip' });
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code));
  });
  try {
    if (format === 'zip') await pipeline(child.stdout, res);
    else await pipeline(child.stdout, createGzip(), res);
  } catch {
    res.destroy();
  }
  // A failed git must not look like a complete archive.
  if ((await exited) !== 0) res.destroy();
}
