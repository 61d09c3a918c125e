import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import { AccessService } from '../../foundation/access/access.service.js';
import { fetchCommit, resolveBranch } from '@cairn/git';
import { RepositoriesRepository, type RepositoryRow } from '../../git-core/repositories/repositories.repository.js';
import { RepoStorage, type RepoLocation } from '../../git-core/storage/repo-storage.js';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';
import { PULL_SETTINGS, type PullSettings } from './pull-settings.js';

/** A pull request's head: the repository of its branch (null: the base repository itself) and the branch. */
export interface PullHead {
  repo: RepositoryRow | null;
  branch: string;
}

export interface HeadColumns {
  headRepoId: number | null;
  headBranch: string;
}

/** A head in another repository is copied in as Gitea's `refs/pull/N/head`, so everything works on the base alone. */
@Injectable()
export class PullHeads {
  constructor(
    private readonly repositories: RepositoriesRepository,
    private readonly access: AccessService,
    private readonly storage: RepoStorage,
    @Inject(PULL_SETTINGS) private readonly settings: PullSettings,
  ) {}

  /** `branch` or `owner:branch`; a missing or unreadable repository is not found, as a missing owner (Gitea's 404). */
  async parse(scope: ViewScope, head: string): Promise<PullHead> {
    const colon = head.indexOf(':');
    if (colon < 0) return { repo: null, branch: head.trim() };
    const owner = head.slice(0, colon).trim();
    const branch = head.slice(colon + 1).trim();
    const base = await this.repositories.findById(scope.repo.id);
    if (!base) throw DomainError.notFound('repository not found');
    const [found] = await this.candidates(base, owner.toLowerCase());
    const notFound = () =>
      DomainError.notFound(
        `"${owner.slice(0, 100)}" has no repository to open a pull request from: the head must be a branch of ` +
          `${base.ownerName}/${base.name}, of a fork of it, or of the repository it was forked from`,
      );
    if (!found) throw notFound();
    if (found.id === base.id) return { repo: null, branch };
    if ((await this.access.accessById(this.access.viewer(scope.actor), found.id)) === 'none') throw notFound();
    return { repo: found, branch };
  }

  /** Gitea's order: the base repository (same owner), the owner's fork of it, the repository it was forked from. */
  private async candidates(base: RepositoryRow, ownerLower: string): Promise<RepositoryRow[]> {
    if (base.ownerLowerName === ownerLower) return [base];
    const [fork, parent] = await Promise.all([
      this.repositories.findForkByOwnerName(ownerLower, base.id),
      base.forkId !== null ? this.repositories.findById(base.forkId) : Promise.resolve(null),
    ]);
    return [fork, parent?.ownerLowerName === ownerLower ? parent : null].filter((r): r is RepositoryRow => r !== null);
  }

  /** The head repository of a pull request (null: the base itself, or a head repository deleted since). */
  async repoOf(pr: HeadColumns): Promise<RepositoryRow | null> {
    return pr.headRepoId === null ? null : this.repositories.findById(pr.headRepoId);
  }

  /** Copied from a fork into `baseDir`; null when the branch or its repository is gone. */
  async currentHead(baseDir: string, pr: HeadColumns): Promise<string | null> {
    if (pr.headRepoId === null) return resolveBranch(baseDir, pr.headBranch);
    const repo = await this.repositories.findById(pr.headRepoId);
    return repo ? this.tipInto(baseDir, repo, pr.headBranch) : null;
  }

  /** The tip of `branch` of `repo`, copied into the repository at `baseDir`; null when the branch does not exist. */
  async tipInto(baseDir: string, repo: RepoLocation, branch: string): Promise<string | null> {
    const dir = this.storage.pathFor(repo);
    const sha = await resolveBranch(dir, branch);
    if (sha) await this.copyInto(baseDir, dir, sha);
    return sha;
  }

  /** Copies a commit of the repository at `headDir` into the repository `baseRepoId`; returns that one's directory. */
  async copyIntoRepo(baseRepoId: number, headDir: string, sha: string): Promise<string> {
    const base = await this.repositories.findById(baseRepoId);
    if (!base) throw new Error(`repository ${baseRepoId} not found`);
    const dir = this.storage.pathFor(base);
    await this.copyInto(dir, headDir, sha);
    return dir;
  }

  /** Copies a commit of the head repository at `headDir` into the base repository (bounded by the check timeout). */
  copyInto(baseDir: string, headDir: string, sha: string): Promise<void> {
    return fetchCommit(baseDir, headDir, sha, this.settings.checkTimeoutMs);
  }
}
