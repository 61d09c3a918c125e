import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, accessAtLeast, isValidBranchName, zeroIdLike,
  type ActorDto, type BranchDto, type CreateBranchRequest, type DeleteBranchRequest, type RenameBranchRequest,
  type RepoScopedRequest,
} from '@cairn/contracts';
import { BranchProtectionService, RENAME_NEEDS_ADMIN } from '../branch-protection/branch-protection.service.js';
import { PushProtection } from '../branch-protection/push-protection.service.js';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { branchRef, deleteRef, resolveBranch, resolveRef, updateRef } from '@cairn/git';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { BranchRenameFollowers } from './branch-rename-followers.js';
import { RepositoriesRepository, type RepositoryRow } from '../../git-core/repositories/repositories.repository.js';
import { RepoStorage } from '../../git-core/storage/repo-storage.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import type { RefUpdateLine } from '../../git-core/transport/push-log.js';
import { PUSH_SINK, type PushSink } from '../../git-core/transport/push-sink.js';
import { BranchesService } from './branches.service.js';

/** Refs move with `update-ref` against expected old values, then are recorded through the push sink like a push. */
@Injectable()
export class BranchWritesService {
  private readonly logger = new Logger('BranchWritesService');

  constructor(
    private readonly git: GitReadContext,
    private readonly views: RepoViews,
    private readonly branches: BranchesService,
    private readonly protection: BranchProtectionService,
    private readonly pushProtection: PushProtection,
    private readonly prisma: PrismaService,
    private readonly renameFollowers: BranchRenameFollowers,
    private readonly repositories: RepositoriesRepository,
    private readonly storage: RepoStorage,
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
    // Creating a branch is a push of it: a protected name needs push rights (Gitea's `CreateNewBranch`).
    await this.pushProtection.assertAllowed({
      repoId: req.repo.id, actorId: actor.id, dir, updates: [{ ref: branchRef(name), old: zeroIdLike(start), new: start }],
    });
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
    // Deleting is a push deleting it: a protected branch is refused (Gitea's `DeleteBranch`: "branch protected").
    await this.pushProtection.assertAllowed({
      repoId: req.repo.id, actorId: actor.id, dir, updates: [{ ref: branchRef(req.branch), old: sha, new: zeroIdLike(sha) }],
    });
    if (!(await deleteRef(dir, branchRef(req.branch), sha))) {
      throw DomainError.conflict(`branch "${req.branch}" moved while it was being deleted`);
    }
    this.logger.log(`repository ${req.repo.id}: ${branchRef(req.branch)} deleted (was ${sha})`);
    // Recording closes the branch's open pull requests (`RefUpdates`), as a push deleting it does.
    await this.record(req, actor, dir, { ref: branchRef(req.branch), old: sha, new: zeroIdLike(sha) });
  }

  // Gitea's `RenameBranch`: default branch, rule and unmerged pull requests follow in one transaction; the refs move
  // against their expected values (a concurrent push fails the rename) and are recorded like a push.
  async rename(req: RenameBranchRequest): Promise<void> {
    const actor = requireActor(req.actor);
    const row = await this.writableRow(req);
    const from = req.branch;
    const to = req.body.name;
    if (!isValidBranchName(to)) throw DomainError.unprocessable(`invalid branch name "${to.slice(0, 100)}"`);
    const dir = this.git.pathOf(req.repo);
    const targetExists = () =>
      DomainError.unprocessable('Cannot rename a branch using the same name or rename to a branch that already exists.');
    if (from === to || (await resolveBranch(dir, to))) throw targetExists();
    const sha = isValidBranchName(from) ? await resolveBranch(dir, from) : null;
    if (!sha) throw DomainError.notFound("Branch doesn't exist.");
    const isDefault = from === row.defaultBranch;
    const isRepoAdmin = actor.isAdmin || accessAtLeast(req.access, 'admin');
    if (isDefault && !isRepoAdmin) throw DomainError.forbidden(RENAME_NEEDS_ADMIN);
    // The old name goes by Gitea's rename rule (a protected branch: repository admins only); the new name is a
    // branch created as a push would create it, under whatever rule governs that name.
    await this.protection.assertMayRename(req.repo.id, from, isRepoAdmin);
    await this.pushProtection.assertAllowed({
      repoId: req.repo.id, actorId: actor.id, dir, updates: [{ ref: branchRef(to), old: zeroIdLike(sha), new: sha }],
    });

    await inTx(this.prisma, async (tx) => {
      if (isDefault) await this.repositories.update(tx, row.id, { defaultBranch: to });
      await this.protection.followRename(tx, row.id, from, to);
      await this.renameFollowers.followRenamedBranch(tx, row.id, from, to);
      // Last, so that a failure above leaves the refs alone; a failure here rolls the rows back.
      if (!(await updateRef(dir, branchRef(to), sha, null, `cairn: branch renamed from ${from}`))) throw targetExists();
      if (!(await deleteRef(dir, branchRef(from), sha))) {
        await deleteRef(dir, branchRef(to), sha).catch(() => undefined);
        throw DomainError.conflict(`branch "${from}" moved while it was being renamed`);
      }
    });
    if (isDefault) {
      await this.storage.setHead(req.repo, to).catch((err: Error) =>
        this.logger.error(`could not point HEAD of repository ${row.id} at ${to}: ${err.message}`),
      );
    }
    this.logger.log(`repository ${req.repo.id}: ${branchRef(from)} renamed to ${branchRef(to)} (at ${sha})`);
    await this.record(req, actor, dir,
      { ref: branchRef(from), old: sha, new: zeroIdLike(sha), renamed: true },
      { ref: branchRef(to), old: zeroIdLike(sha), new: sha, renamed: true },
    );
  }

  /** A repository that is neither archived (423, as Gitea's `mustNotBeArchived`) nor empty. */
  private async writableRow(req: RepoScopedRequest): Promise<RepositoryRow> {
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

  private record(req: RepoScopedRequest, actor: ActorDto, dir: string, ...lines: RefUpdateLine[]) {
    return this.recordPush({ repoId: req.repo.id, dir, pusherId: actor.id, via: 'api', journalId: randomUUID() }, lines);
  }
}
