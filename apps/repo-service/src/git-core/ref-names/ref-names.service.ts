import { Injectable } from '@nestjs/common';
import type { ListRefNamesRequest, RefNamesReply } from '@cairn/contracts';
import { LruCache } from '@cairn/platform';
import { branchAndTagRefs } from '@cairn/git';
import { GitReadContext } from '../git/git-read-context.js';
import { refStoreStamp } from './ref-store-stamp.js';

/** Refs listed at most (about 200,000 names): a page must not read an unbounded list. */
const REF_LIST_MAX_BYTES = 16 * 1024 * 1024;
/** Repositories whose names are remembered, and the most names remembered for one. */
const CACHED_REPOSITORIES = 1_000;
const CACHED_NAMES_MAX = 10_000;

interface KnownNames {
  stamp: string;
  branches: string[];
  tags: string[];
}

// One `for-each-ref` for branches and tags, remembered per repository with its ref store's stamp
// ({@link refStoreStamp}: a few `stat`s), so a page view starts no git process while no ref was added or removed.
@Injectable()
export class RefNamesService {
  private readonly known = new LruCache<KnownNames>(CACHED_REPOSITORIES);

  constructor(private readonly git: GitReadContext) {}

  async list(req: ListRefNamesRequest): Promise<RefNamesReply> {
    if (req.repo.empty) return { branches: [], tags: [], truncated: false };
    const repoPath = this.git.pathOf(req.repo);
    const stamp = await refStoreStamp(repoPath);
    let names = stamp === null ? undefined : this.known.get(repoPath);
    if (!names || names.stamp !== stamp) {
      names = { stamp: stamp ?? '', ...(await this.read(repoPath)) };
      if (stamp !== null && names.branches.length + names.tags.length <= CACHED_NAMES_MAX) this.known.set(repoPath, names);
    }
    return {
      branches: names.branches.slice(0, req.limit),
      tags: names.tags.slice(0, req.limit),
      truncated: names.branches.length > req.limit || names.tags.length > req.limit,
    };
  }

  private async read(repoPath: string): Promise<{ branches: string[]; tags: string[] }> {
    const branches: string[] = [];
    const tags: string[] = [];
    for (const line of await branchAndTagRefs(repoPath, REF_LIST_MAX_BYTES)) {
      if (line.startsWith('refs/heads/')) branches.push(line.slice('refs/heads/'.length));
      else if (line.startsWith('refs/tags/')) tags.push(line.slice('refs/tags/'.length));
    }
    return { branches, tags };
  }
}
