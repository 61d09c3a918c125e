import { LruCache } from '@cairn/platform';
import type { CatFilePool } from './cat-file-pool.js';
import { readCommitObjects } from './history.js';

/** What a listing shows of a commit (a tree entry's last commit, the latest-commit bar). */
export interface CommitHeadline {
  /** The message's first line, trimmed. */
  title: string;
  authorName: string;
  authorEmail: string;
  /** RFC 3339, as the commit object states them. */
  authorDate: string;
  committerDate: string;
  parents: string[];
}

/**
 * Headlines by commit id. An id names the object's bytes in every repository, so an entry never goes stale and is
 * shared by forks; it is only ever answered for ids a caller found in its own repository. Only memory is bounded.
 */
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

/** The process-wide cache used unless a caller passes its own. */
export const commitHeadlineCache = new CommitHeadlineCache();

/**
 * The headlines of the given commits: from the cache, the others read in one pipelined cat-file round trip (a tree
 * page of 200 entries reads its commits once, not on every view). Throws when an id is not a commit.
 */
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
