import { Injectable } from '@nestjs/common';
import { LruCache } from '@cairn/platform';

/** How long a repository's path is reused before it is asked again. */
const KEEP_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Where repositories live, by id, as repo-service last said (`repo.pull-request.check-target`): a check then needs
 * no request before its git work. A path can go out of date (a rename or transfer): a check that fails there is run
 * again after asking (see `MergeCheckService.process`), and entries are asked again after {@link KEEP_MS}. A check
 * that succeeds in an out-of-date place computed the same answer — a merge of two commits depends only on them.
 */
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
