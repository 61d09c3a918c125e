import type { ServerResponse } from 'node:http';
import { baseName, type CatFilePool, lookupPaths, resolveRef, sanitizeTreePath, spawnBlobReader } from '@cairn/git';
import { sharedCatFilePool } from '../git/shared-pool.js';
import { inlineDisposition, OCTET_STREAM, SNIFF_BYTES } from './content-type.js';
import { isValidRefOrSha } from '@cairn/contracts';
import { plainAnswer } from './plain-answer.js';

// For blobs too large for a bus message; mounted as `GET /internal/raw` after the internal-token check. The lookup
// uses the pooled cat-file, the bytes a dedicated `git cat-file blob` so a long download never holds the pool.
export async function streamRawBlob(
  repoPath: string,
  ref: string,
  path: string,
  res: ServerResponse,
  pool: CatFilePool = sharedCatFilePool(),
): Promise<void> {
  const clean = sanitizeTreePath(path);
  if (!clean || !isValidRefOrSha(ref)) return plainAnswer(res, 400, 'invalid ref or path');
  let resolved;
  try {
    resolved = await resolveRef(pool, repoPath, ref);
  } catch {
    return plainAnswer(res, 404, 'not found');
  }
  if (!resolved) return plainAnswer(res, 404, 'not found');
  const [entry] = await lookupPaths(pool, repoPath, resolved.commit, [clean]);
  if (!entry || (entry.kind !== 'file' && entry.kind !== 'symlink')) return plainAnswer(res, 404, 'not found');
  const info = await pool.one(repoPath, { op: 'info', object: entry.oid });
  if (!info) return plainAnswer(res, 404, 'not found');

  const child = spawnBlobReader(repoPath, entry.oid);
  res.once('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const head: Buffer[] = [];
  let headBytes = 0;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const sample = Buffer.concat(head);
    res.writeHead(200, {
      'content-type': OCTET_STREAM,
      'content-length': String(info.size),
      'content-disposition': inlineDisposition(baseName(clean)),
      'x-content-type-options': 'nosniff',
      etag: `"${entry.oid}"`,
      'cache-control': 'private, max-age=300',
      'x-gitea-object-type': entry.kind,
    });
    if (sample.length) res.write(sample);
  };
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        if (!res.write(chunk)) {
          child.stdout.pause();
          res.once('drain', () => child.stdout.resume());
        }
        return;
      }
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes >= SNIFF_BYTES) start();
    });
    child.on('error', () => {
      plainAnswer(res, 500, 'internal error');
      resolve();
    });
    child.on('close', (code) => {
      if (code !== 0) {
        plainAnswer(res, 500, 'internal error');
      } else {
        start();
        res.end();
      }
      resolve();
    });
  });
}
