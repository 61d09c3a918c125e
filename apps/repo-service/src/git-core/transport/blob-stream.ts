import type { ServerResponse } from 'node:http';
import { isObjectId } from '@cairn/contracts';
import { type CatFilePool, spawnBlobReader } from '@cairn/git';
import { sharedCatFilePool } from '../git/shared-pool.js';

function plain(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

/** For blobs too large for a bus message; a dedicated `git cat-file blob`, so long reads never hold the pooled one. */
export async function streamBlobById(repoPath: string, oid: string, res: ServerResponse, pool: CatFilePool = sharedCatFilePool()): Promise<void> {
  if (!isObjectId(oid)) return plain(res, 400, 'invalid blob id');
  const info = await pool.one(repoPath, { op: 'info', object: oid }).catch(() => null);
  if (info?.type !== 'blob') return plain(res, 404, 'not found');
  const child = spawnBlobReader(repoPath, oid);
  res.once('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(info.size) });
  child.stdout.pipe(res);
  await new Promise<void>((resolve) => {
    child.on('error', () => {
      res.destroy();
      resolve();
    });
    child.on('close', (code) => {
      if (code !== 0) res.destroy();
      resolve();
    });
  });
}
