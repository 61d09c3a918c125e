import { Injectable } from '@nestjs/common';
import { LruCache } from '@cairn/platform';

const KEEP_MS = 60_000;
const MAX_ENTRIES = 10_000;

// A stale path (rename, transfer) only costs a retry: a merge of two commits depends only on them.
@Injectable()
export class RepositoryPaths {
  private readonly paths = new LruCache<{ dir: string; at: number }, number>(MAX_ENTRIES);

  get(repoId: number, now = Date.now()): string | undefined {
    const hit = this.paths.get(repoId);
    if (!hit) return undefined;
    if (now - hit.at < KEEP_MS) return hit.dir;
    this.paths.delete(repoId);
    return undefined;
  }

  set(repoId: number, dir: string, now = Date.now()): void {
    this.paths.set(repoId, { dir, at: now });
  }

  forget(repoId: number): void {
    this.paths.delete(repoId);
  }
}
