import { Injectable } from '@nestjs/common';
import {
  accessAtLeast, DomainError, NOT_SIGNED_VERIFICATION, isValidRefNameAfterPrefix, toPaging, type BranchDto, type GetBranchRequest, type ListBranchesRequest, type Paginated, type RepoScopedRequest,
} from '@cairn/contracts';
import { CommitUserDirectory } from '../commits/commit-users.js';
import { listRefs, parseCommitObject, type ParsedCommitObject } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { CommitVerifier } from '../../git-core/signatures/commit-verifier.js';
import { toBranchDto } from './branches.mapper.js';
import { BranchProtectionService } from '../branch-protection/branch-protection.service.js';

/** One `for-each-ref` (Gitea's order), heads from the pooled cat-file, usernames in one identity-service call. */
@Injectable()
export class BranchesService {
  constructor(
    private readonly git: GitReadContext,
    private readonly users: CommitUserDirectory,
    private readonly verifier: CommitVerifier,
    private readonly protection: BranchProtectionService,
  ) {}

  async list(req: ListBranchesRequest): Promise<Paginated<BranchDto>> {
    if (req.repo.empty) return { items: [], total: 0 };
    const repoPath = this.git.pathOf(req.repo);
    const refs = await listRefs(repoPath, { patterns: ['refs/heads/'], sort: ['refname', '-committerdate'] });
    const all = refs.map((r) => ({ sha: r.oid, name: r.ref.replace(/^refs\/heads\//, '') }));
    const paging = toPaging(req.query);
    const page = all.slice(paging.skip, paging.skip + paging.take);
    return { items: await this.toDtos(req, repoPath, page), total: all.length };
  }

  async get(req: GetBranchRequest): Promise<BranchDto> {
    const notFound = () => DomainError.notFound(`branch does not exist [name: ${req.branch}]`);
    // Any branch git allows, `-x` included: the name only reaches git as `refs/heads/<name>` (cat-file's stdin).
    if (!isValidRefNameAfterPrefix(req.branch) || req.repo.empty) throw notFound();
    const repoPath = this.git.pathOf(req.repo);
    const head = await this.git.pool.one(repoPath, { op: 'info', object: `refs/heads/${req.branch}^{commit}` });
    if (!head) throw notFound();
    return (await this.toDtos(req, repoPath, [{ name: req.branch, sha: head.oid }]))[0];
  }

  private async toDtos(
    req: RepoScopedRequest,
    repoPath: string,
    branches: { name: string; sha: string }[],
  ): Promise<BranchDto[]> {
    if (branches.length === 0) return [];
    const objects = await this.git.pool.run(
      repoPath,
      branches.map((b) => ({ op: 'contents', object: b.sha })),
    );
    const commits = objects.map((o): ParsedCommitObject => {
      if (o?.type !== 'commit' || !o.data) throw DomainError.notFound('branch head is not a commit');
      return parseCommitObject(o.data);
    });
    const [users, verifications] = await Promise.all([
      this.users.byEmails(commits.flatMap((c) => [c.author.email, c.committer.email])),
      this.verifier.verify(req.repo, branches.map((b, i) => ({ sha: b.sha, commit: commits[i] }))),
    ]);
    const canWrite = req.actor !== null && req.actor !== undefined && accessAtLeast(req.access, 'write');
    const htmlUrl = this.git.htmlUrl(req.repo);
    const standing = await this.protection.standingFor(req.repo, req.actor ?? null, req.access, branches.map((b) => b.name));
    return branches.map((b, i) =>
      toBranchDto(
        b.name, b.sha, commits[i], htmlUrl, users, canWrite, verifications.get(b.sha) ?? { ...NOT_SIGNED_VERIFICATION },
        standing.get(b.name) ?? null,
      ),
    );
  }
}
