import { DomainError, repoUrls, type RepoRefDto } from '@cairn/contracts';
import { type CatFilePool, repoStoragePath, type ResolvedRef, resolveRef } from '@cairn/git';

/** What the git read services share: the cat-file pool, where repositories live, and how to link to them. */
export class GitReadContext {
  constructor(
    readonly pool: CatFilePool,
    readonly repoRoot: string,
    readonly rootUrl: string,
    readonly commitsRangeSize: number,
  ) {}

  /** The repository's directory (names validated; never outside the storage root). */
  pathOf(repo: RepoRefDto): string {
    return repoStoragePath(this.repoRoot, repo.ownerName, repo.name);
  }

  apiUrl(repo: RepoRefDto): string {
    return repoUrls(this.rootUrl, repo).api;
  }

  htmlUrl(repo: RepoRefDto): string {
    return repoUrls(this.rootUrl, repo).html;
  }

  /** Resolves `ref` (default branch when absent or blank) or fails with NOT_FOUND, as Gitea's `resolveRefCommit`. */
  async resolveOrNotFound(repo: RepoRefDto, repoPath: string, ref: string | undefined): Promise<ResolvedRef> {
    const input = ref?.trim() || repo.defaultBranch;
    const resolved = await resolveRef(this.pool, repoPath, input);
    if (!resolved) throw DomainError.notFound(`ref "${input}" not found`);
    return resolved;
  }
}
