import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, accessAtLeast, isValidBranchName, zeroIdLike,
  type ActorDto, type BranchDto, type CreateBranchRequest, type DeleteBranchRequest, type RepoScopedRequest,
} from '@cairn/contracts';
import { GitReadContext } from '../git/git-read-context.js';
import { resolveRef } from '../git/refs.js';
import { branchRef, deleteRef, resolveBranch, updateRef } from '../merge/git-plumbing.js';
import { PullsService } from '../pulls/pulls.service.js';
import type { RepositoryRow } from '../repositories/repositories.repository.js';
import { requireActor } from '../tracker/issue-permissions.js';
import { RepoViews } from '../tracker/repo-views.js';
import { PUSH_SINK, type PushSink } from '../transport/push-sink.js';
import { BranchesService } from './branches.service.js';

/**
 * Branch creation and deletion through the API (Gitea's `CreateBranch`/`DeleteBranch`): the ref moves with
 * `update-ref` against its expected old value, then is recorded through the push sink exactly like a push that
 * creates or deletes it (push event, `create`/`delete` webhooks, pull requests following their branches).
 */
@Injectable()
export class BranchWritesService {
  private readonly logger = new Logger('BranchWritesService');

  constructor(
    private readonly git: GitReadContext,
    private readonly views: RepoViews,
    private readonly branches: BranchesService,
    private readonly pulls: PullsService,
    @Inject(PUSH_SINK) private readonly recordPush: PushSink,
  ) {}

  async create(req: CreateBranchRequest): Promise<BranchDto> {
    const actor = requireActor(req.actor);
    const row = await this.writableRow(req);
    const name = req.body.new_branch_name;
    if (!isValidBranchName(name)) throw DomainError.unprocessable(`invalid branch name "${name}"`);
    const dir = this.git.pathOf(req.repo);
    const start = await this.startCommit(dir, row, req.body.old_ref_name, req.body.old_branch_name);
    // A tag of the same name would make the short name ambiguous; Gitea refuses it too.
    if (await resolveRef(this.git.pool, dir, `refs/tags/${name}`)) {
      throw DomainError.conflict('The branch with the same tag already exists.');
    }
    // Expected old "none": an existing branch (or one with a clashing path, `a` vs `a/b`) is never overwritten.
    if (!(await updateRef(dir, branchRef(name), start, null, 'cairn: branch created'))) {
      throw DomainError.conflict('The branch already exists.');
    }
    this.logger.log(`repository ${req.repo.id}: ${branchRef(name)} created at ${start}`);
    await this.record(req, actor, dir, { ref: branchRef(name), old: zeroIdLike(start), new: start });
    return this.branches.get({ ...req, branch: name });
  }

  async delete(req: DeleteBranchRequest): Promise<void> {
    const actor = requireActor(req.actor);
    const row = await this.writableRow(req);
    if (req.branch === row.defaultBranch) throw DomainError.forbidden('can not delete default branch');
    const dir = this.git.pathOf(req.repo);
    const notFound = () => DomainError.notFound(`branch does not exist [name: ${req.branch}]`);
    if (!isValidBranchName(req.branch)) throw notFound();
    const sha = await resolveBranch(dir, req.branch);
    if (!sha) throw notFound();
    if (!(await deleteRef(dir, branchRef(req.branch), sha))) {
      throw DomainError.conflict(`branch "${req.branch}" moved while it was being deleted`);
    }
    this.logger.log(`repository ${req.repo.id}: ${branchRef(req.branch)} deleted (was ${sha})`);
    await this.record(req, actor, dir, { ref: branchRef(req.branch), old: sha, new: zeroIdLike(sha) });
    await this.pulls.closeBranchPulls(req, actor, req.branch);
  }

  /** Write access, a repository that is neither archived (423, as Gitea's `mustNotBeArchived`) nor empty. */
  private async writableRow(req: RepoScopedRequest): Promise<RepositoryRow> {
    if (!accessAtLeast(req.access, 'write')) throw DomainError.forbidden('user should have a permission to write to a repo');
    const row = await this.views.row(req.repo.id);
    if (row.isArchived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
    if (row.isEmpty) throw DomainError.notFound('Git Repository is empty.');
    return row;
  }

  /** Gitea's order: `old_ref_name` (a branch, tag or commit), else `old_branch_name`, else the default branch. */
  private async startCommit(dir: string, row: RepositoryRow, oldRef?: string, oldBranch?: string): Promise<string> {
    if (oldRef) {
      const resolved = await resolveRef(this.git.pool, dir, oldRef);
      if (!resolved) throw DomainError.notFound(`The old ref does not exist [ref: ${oldRef}]`);
      return resolved.commit;
    }
    const branch = oldBranch || row.defaultBranch;
    const sha = isValidBranchName(branch) ? await resolveBranch(dir, branch) : null;
    if (!sha) throw DomainError.notFound('The old branch does not exist');
    return sha;
  }

  private record(req: RepoScopedRequest, actor: ActorDto, dir: string, line: { ref: string; old: string; new: string }) {
    return this.recordPush({ repoId: req.repo.id, dir, pusherId: actor.id, via: 'api', journalId: randomUUID() }, [line]);
  }
}
