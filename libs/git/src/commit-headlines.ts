import { LruCache } from '@cairn/platform';
import type { CatFilePool } from './cat-file-pool.js';
import { readCommitObjects } from './history.js';

export interface CommitHeadline {
  title: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerDate: string;
  parents: string[];
}

/** An id names the object's bytes everywhere, so entries never go stale and forks share them; answered only for ids a caller found. */
export class CommitHeadlineCache {
  private readonly entries: LruCache<CommitHeadline>;

  constructor(readonly maxEntries = 20_000) {
    this.entries = new LruCache(maxEntries);
  }

  get(id: string): CommitHeadline | undefined {
    return this.entries.get(id);
  }

  set(id: string, headline: CommitHeadline): void {
    this.entries.set(id, headline);
  }

  get size(): number {
    return this.entries.size;
  }
}

export const commitHeadlineCache = new CommitHeadlineCache();

/** Uncached ones in one pipelined cat-file round trip. Throws when an id is not a commit. */
export async function readCommitHeadlines(
  pool: Pick<CatFilePool, 'run'>,
  repoPath: string,
  ids: string[],
  cache: CommitHeadlineCache = commitHeadlineCache,
): Promise<Map<string, CommitHeadline>> {
  const out = new Map<string, CommitHeadline>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = cache.get(id);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  for (const [id, c] of await readCommitObjects(pool, repoPath, missing)) {
    const nl = c.message.indexOf('\n');
    const headline: CommitHeadline = {
      title: (nl < 0 ? c.message : c.message.slice(0, nl)).trim(),
      authorName: c.author.name,
      authorEmail: c.author.email,
      authorDate: c.author.date,
      committerDate: c.committer.date,
      parents: c.parents,
    };
    cache.set(id, headline);
    out.set(id, headline);
  }
  return out;
}
