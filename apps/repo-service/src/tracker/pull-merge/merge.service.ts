import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import {
  DomainError, ErrorCode, PullRequestEvents, mergeStyleAllowed, updateStyleAllowed, zeroIdLike,
  type ActorDto, type MergePullRequest, type MergeableState, type UpdatePullRequest,
  type RepoTrustModel, type UserDto,
} from '@cairn/contracts';
import { requireActor } from '../../foundation/access/require-actor.js';
import { IssuesRepository } from '../issue-core/issues.repository.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { MergeabilityService } from '../pulls/mergeability.service.js';
import { PullRenderer, type PullRendering } from '../issue-core/pull-renderer.js';
import { effectiveStatus, type PullIssueRow } from '../issue-core/pull.mapper.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { PullsService } from '../pulls/pulls.service.js';
import { PULL_SETTINGS, type PullSettings } from '../pulls/pull-settings.js';
import { mergeSettingsOf } from '../../git-core/repositories/repository.mapper.js';
import { RefUpdates, type PreparedRefUpdates } from '../ref-updates/ref-updates.service.js';
import { RepoStorage } from '../../git-core/storage/repo-storage.js';
import { PullHeads } from '../pulls/pull-heads.js';
import { branchRef, checkMergeability, deleteRef, resolveBranch, updateRef, type GitIdentity } from '@cairn/git';
import { computeMerge, computeUpdate } from '../../git-core/merge/merge-styles.js';
import { userGitIdentity } from '../../git-core/repositories/user-identity.js';
import { CommitSigner } from '../../git-core/merge/commit-signer.js';
import { MergeProtection, type ProposedMerge } from '../../code/branch-protection/merge-protection.service.js';
import { PushProtection, type ProposedRefWrite } from '../../code/branch-protection/push-protection.service.js';
import { Approvals } from '../reviews/approvals.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { IssuesService } from '../issues/issues.service.js';
import { closingReferences } from './closing-references.js';
import { EventOutbox } from '@cairn/platform';

const notAllowed = (message: string) => new DomainError(ErrorCode.NOT_ALLOWED, message);

/** The branch moves with `update-ref <new> <old>` (a concurrent push wins: 409), recorded like a push. */
@Injectable()
export class MergeService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('MergeService');
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly approvals: Approvals,
    private readonly prisma: PrismaService,
    private readonly issues: IssuesRepository,
    private readonly pullsRepo: PullsRepository,
    private readonly pulls: PullsService,
    private readonly mergeability: MergeabilityService,
    private readonly renderer: PullRenderer,
    private readonly views: RepoViews,
    private readonly storage: RepoStorage,
    private readonly outbox: EventOutbox,
    private readonly refUpdates: RefUpdates,
    private readonly signer: CommitSigner,
    private readonly mergeProtection: MergeProtection,
    private readonly pushProtection: PushProtection,
    private readonly heads: PullHeads,
    private readonly issueService: IssuesService,
    @Inject(PULL_SETTINGS) private readonly settings: PullSettings,
  ) {}

  /** Work that must finish even when its caller has gone (updates): awaited before the service shuts down. */
  private detach<T>(work: Promise<T>): Promise<T> {
    this.inflight.add(work);
    const done = () => this.inflight.delete(work);
    work.then(done, done);
    return work;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }


  /** The pull request's official approvals under a protection rule, for its head `head` (merge rules and signing). */
  private approvalsOf(issueId: number, head: string): ProposedMerge['approvals'] {
    return (rule) => this.approvals.approvalsCount({ id: issueId, pullRequest: { headSha: head } }, { dismissStale: rule.dismissStaleApprovals });
  }

  async merge(req: MergePullRequest): Promise<null> {
    return this.detach(this.runMerge(req));
  }

  private async runMerge(req: MergePullRequest): Promise<null> {
    const actor = requireActor(req.actor);
    const row = await this.pulls.load(req.repo.id, req.index);
    const pr = row.pullRequest;
    if (pr.merged) throw notAllowed('the pull request has already been merged');
    if (row.state !== 'open') throw notAllowed('the pull request is closed');
    const style = req.body.Do;
    const repoRow = await this.views.row(req.repo.id);
    if (!mergeStyleAllowed(mergeSettingsOf(repoRow), style)) throw notAllowed(`the merge style "${style}" is not allowed in this repository`);
    if (style === 'manually-merged') throw notAllowed('marking a pull request as manually merged is not supported');

    const dir = this.storage.pathFor(req.repo);
    // A fork's head is read from the fork and copied here: the merge runs in this repository.
    const [base, head] = await Promise.all([resolveBranch(dir, pr.baseBranch), this.heads.currentHead(dir, pr)]);
    if (!base) throw notAllowed(`the base branch "${pr.baseBranch}" no longer exists`);
    if (!head) throw notAllowed(`the head branch "${pr.headBranch}" no longer exists`);
    const wanted = req.body.head_commit_id?.toLowerCase();
    if (wanted && !(wanted === head || (wanted.length >= 7 && head.startsWith(wanted)))) {
      throw DomainError.conflict(`the head of the pull request moved: it is ${head}, not ${req.body.head_commit_id}`);
    }

    // Mergeability of exactly these commits: the stored result if it is for them, else the check runs now (a
    // pending or delayed check is never an answer in itself).
    const status = await this.statusFor(row, dir, base, head);
    if (status.status === 'conflict') {
      throw new DomainError(ErrorCode.CONFLICT, `merge conflict in ${status.files.length} file(s): ${status.files.slice(0, 20).join(', ')}`, status.files);
    }
    if (status.status === 'error') throw notAllowed(`the pull request cannot be merged: ${status.message}`);
    const approvals = this.approvalsOf(row.id, head);
    const refusal = await this.mergeProtection.refusal({
      repo: req.repo, actorId: actor.id, actorIsAdmin: actor.isAdmin, access: req.access, baseBranch: pr.baseBranch,
      dir, base, head, forceMerge: !!req.body.force_merge, approvals,
    });
    if (refusal) throw notAllowed(refusal.message);

    const users = await this.views.users([actor.id, row.posterId, req.repo.ownerId]);
    const merger = this.identityOf(users.get(actor.id), actor);
    const poster = users.get(row.posterId);
    const squashAuthor = poster ? this.identityOf(poster) : merger;
    const title = req.body.MergeTitleField?.trim() || this.defaultTitle(style, row);
    const bodyText = (req.body.MergeMessageField ?? req.body.merge_message_field ?? (style === 'squash' ? row.body : ''))?.trim();
    const message = `${title}${bodyText ? `\n\n${bodyText}` : ''}\n`;

    // Gitea's SignMerge: the rules look at the base and head as they are now (fast-forward makes no commit).
    const signing = style === 'fast-forward-only'
      ? null
      : await this.signer.decide('merge', {
        gitDir: dir, repo: req.repo, trustModel: repoRow.trustModel as RepoTrustModel, actorId: actor.id, actor, baseCommit: base, headCommit: head,
        approvals: () => this.mergeProtection.approvalsForSigning(req.repo.id, pr.baseBranch, approvals),
      });
    const outcome = await computeMerge(style, {
      dir, base, head, message, merger, squashAuthor, signing, timeoutMs: this.settings.checkTimeoutMs,
    });
    if (outcome.kind === 'conflict') {
      throw new DomainError(ErrorCode.CONFLICT, `merge conflict in ${outcome.files.length} file(s): ${outcome.files.slice(0, 20).join(', ')}`, outcome.files);
    }
    if (outcome.kind === 'not-possible' || outcome.kind === 'error') throw notAllowed(outcome.message);
    if (outcome.kind === 'up-to-date') throw notAllowed('there is nothing to merge');
    // The merge lands as a push of the base would (deletion, force, signatures, protected files), the merge rules
    // above standing in for the push allow-list; refused as Gitea refuses a merge its pre-receive rejects (405).
    await this.pushProtection
      .assertAllowed({ ...this.refWrite(req, actor, dir, pr.baseBranch, base, outcome.newTip), pullMerge: true })
      .catch((err: unknown) => {
        throw err instanceof DomainError && err.code === ErrorCode.PERMISSION_DENIED ? notAllowed(err.message) : err;
      });
    if (!(await updateRef(dir, branchRef(pr.baseBranch), outcome.newTip, base, `cairn: merge pull request #${row.index}`))) {
      throw DomainError.conflict(`the base branch "${pr.baseBranch}" moved while merging; try again`);
    }
    this.logger.log(`merged pull ${pr.id} (#${row.index}) of repository ${req.repo.id} with ${style}: ${base} -> ${outcome.newTip}`);

    const r = await this.renderer.prepare(req, [row], actor);
    const moved = await this.prepareMove(req, actor, dir, pr.baseBranch, base, outcome.newTip);
    const now = new Date();
    const recorded = await inTx(this.prisma, async (tx) => {
      await this.refUpdates.lockBranches(tx, moved);
      await this.pullsRepo.markMerged(tx, pr.id, { mergedById: actor.id, mergeCommitSha: outcome.newTip, style, now });
      await this.issues.setState(tx, row, 'closed', now);
      await this.issues.addComment(tx, { issueId: row.id, repoId: row.repoId, type: 'merge_pull', posterId: actor.id, body: outcome.newTip, now });
      const rec = await this.refUpdates.recordRefUpdates(tx, moved, r.repository);
      const merged = (await this.issues.findById(req.repo.id, row.id, tx)) as PullIssueRow;
      await this.outbox.record(tx, PullRequestEvents.merged, {
        action: 'closed',
        number: merged.index,
        pullRequest: r.pull(merged),
        commitId: outcome.newTip,
        repository: r.repository,
        sender: r.sender,
      });
      return rec;
    });
    await this.refUpdates.afterCommit(recorded);
    await this.closeReferencedIssues(req, actor, row);

    if (req.body.delete_branch_after_merge) await this.deleteHeadBranch(req, actor, row, head, dir, r);
    return null;
  }

  /** Gitea closes the issues a merged pull request's title or body names with a closing keyword; the merge stands if that fails. */
  private async closeReferencedIssues(req: MergePullRequest, actor: ActorDto, row: PullIssueRow): Promise<void> {
    const indexes = closingReferences(`${row.title}\n${row.body}`, req.repo.ownerName, req.repo.name).filter((n) => n !== row.index);
    if (!indexes.length) return;
    try {
      const closed = await this.issueService.closeReferencedBy(req, actor, { index: row.index }, indexes);
      if (closed.length) this.logger.log(`pull #${row.index} of repository ${req.repo.id} closed issues ${closed.map((n) => `#${n}`).join(', ')}`);
    } catch (err) {
      this.logger.warn(`closing the issues pull #${row.index} of repository ${req.repo.id} names failed: ${(err as Error).message}`);
    }
  }

  private defaultTitle(style: string, row: PullIssueRow): string {
    const pr = row.pullRequest;
    if (style === 'squash') return `${row.title} (#${row.index})`;
    return `Merge pull request '${row.title}' (#${row.index}) from ${pr.headBranch} into ${pr.baseBranch}`;
  }

  /** The stored result when it is for exactly these commits; otherwise the check, run now and recorded. */
  private async statusFor(
    row: PullIssueRow,
    dir: string,
    base: string,
    head: string,
  ): Promise<{ status: MergeableState; files: string[]; message: string }> {
    const pr = row.pullRequest;
    if (pr.baseSha === base && pr.headSha === head && effectiveStatus(pr) !== 'checking') {
      return { status: pr.status as MergeableState, files: pr.conflictedFiles ?? [], message: pr.checkMessage ?? 'the check failed' };
    }
    const outcome = await checkMergeability(dir, base, head, this.settings.checkTimeoutMs);
    const result =
      outcome.kind === 'clean'
        ? { status: 'mergeable' as const, files: [], message: '' }
        : outcome.kind === 'conflict'
          ? { status: 'conflict' as const, files: outcome.files, message: '' }
          : { status: 'error' as const, files: [], message: outcome.message };
    // Stored only if these are the pull request's current commits (else the push that moved them is on its way).
    await this.mergeability
      .report({ pullId: pr.id, status: result.status, conflicted_files: result.files, base_sha: base, head_sha: head, message: result.message || undefined })
      .catch((err) => this.logger.warn(`storing the check of pull ${pr.id} failed: ${(err as Error).message}`));
    return result;
  }

  private async deleteHeadBranch(
    scope: ViewScope,
    actor: ActorDto,
    row: PullIssueRow,
    head: string,
    dir: string,
    r: PullRendering,
  ): Promise<void> {
    const pr = row.pullRequest;
    // A fork's branch is the fork's owner's to delete (Cairn never writes to a fork).
    if (pr.headRepoId !== null) return;
    if (pr.headBranch === (await this.views.row(scope.repo.id)).defaultBranch) return;
    if ((await this.pullsRepo.countOpenUsingBranch(scope.repo.id, pr.headBranch, pr.id)) > 0) return;
    // A protected head stays, and the caller hears why (Gitea answers 403 "branch protected" after the merge).
    await this.pushProtection.assertAllowed(this.refWrite(scope, actor, dir, pr.headBranch, head, zeroIdLike(head)));
    if (!(await deleteRef(dir, branchRef(pr.headBranch), head))) return;
    const moved = await this.prepareMove(scope, actor, dir, pr.headBranch, head, zeroIdLike(head));
    const recorded = await inTx(this.prisma, (tx) => this.refUpdates.recordRefUpdates(tx, moved, r.repository));
    await this.refUpdates.afterCommit(recorded);
  }


  /** Runs to the end even if the caller stops waiting: the git work and the write are not tied to the request. */
  update(req: UpdatePullRequest): Promise<null> {
    return this.detach(this.runUpdate(req));
  }

  private async runUpdate(req: UpdatePullRequest): Promise<null> {
    const actor = requireActor(req.actor);
    const style = req.style ?? 'merge';
    const row = await this.pulls.load(req.repo.id, req.index);
    const pr = row.pullRequest;
    if (pr.merged) throw DomainError.unprocessable('the pull request has already been merged');
    if (row.state !== 'open') throw DomainError.unprocessable('the pull request is closed');
    if (pr.headRepoId !== null) throw DomainError.unprocessable('updating the head branch of a pull request from another repository is not supported');
    const repoRow = await this.views.row(req.repo.id);
    if (!updateStyleAllowed(mergeSettingsOf(repoRow), style)) {
      throw DomainError.forbidden('updating the branch by rebase is not allowed in this repository');
    }
    const dir = this.storage.pathFor(req.repo);
    const [base, head] = await Promise.all([resolveBranch(dir, pr.baseBranch), resolveBranch(dir, pr.headBranch)]);
    if (!base || !head) throw DomainError.unprocessable(`branch "${!base ? pr.baseBranch : pr.headBranch}" no longer exists`);
    const users = await this.views.users([actor.id, row.posterId, req.repo.ownerId]);
    const merger = this.identityOf(users.get(actor.id), actor);
    // An update merges the base into the head: Gitea signs it as the merge of a reversed pull request.
    const signing = style === 'merge'
      ? await this.signer.decide('merge', {
        gitDir: dir, repo: req.repo, trustModel: repoRow.trustModel as RepoTrustModel, actorId: actor.id, actor, baseCommit: head, headCommit: base,
        approvals: () => this.mergeProtection.approvalsForSigning(req.repo.id, pr.headBranch, this.approvalsOf(row.id, head)),
      })
      : null;
    const outcome = await computeUpdate(style, {
      dir, base, head, baseBranch: pr.baseBranch, headBranch: pr.headBranch, merger, signing, timeoutMs: this.settings.checkTimeoutMs,
    });
    if (outcome.kind === 'up-to-date') return null;
    if (outcome.kind === 'conflict') {
      throw new DomainError(ErrorCode.CONFLICT, `merge failed because of conflict in: ${outcome.files.slice(0, 20).join(', ')}`, outcome.files);
    }
    if (outcome.kind !== 'ok') throw DomainError.unprocessable(outcome.message);
    // Updating is a push to the head by the updater (Gitea's `IsUserAllowedToUpdate`): a merge is a push, a rebase
    // that rewrites the branch a force push — the head's protection decides, as for a push.
    await this.pushProtection.assertAllowed(this.refWrite(req, actor, dir, pr.headBranch, head, outcome.newTip));
    if (!(await updateRef(dir, branchRef(pr.headBranch), outcome.newTip, head, `cairn: update pull request #${row.index} (${style})`))) {
      throw DomainError.conflict(`the head branch "${pr.headBranch}" moved while updating; try again`);
    }
    this.logger.log(`updated pull ${pr.id} (#${row.index}) with ${style}: ${head} -> ${outcome.newTip}`);

    // The base the branch was updated from is the pull request's base from now on; the head move itself (new head,
    // `synchronized` event, `refs/pull/N/head`, the check) is recorded like a push's.
    const r = await this.renderer.prepare(req, [row], actor);
    const moved = await this.prepareMove(req, actor, dir, pr.headBranch, head, outcome.newTip);
    const recorded = await inTx(this.prisma, async (tx) => {
      await this.refUpdates.lockBranches(tx, moved);
      await this.pullsRepo.setCommits(tx, pr.id, { baseSha: base, mergeBase: base });
      return this.refUpdates.recordRefUpdates(tx, moved, r.repository);
    });
    await this.refUpdates.afterCommit(recorded);
    return null;
  }


  /** A user's git identity: full name (else login) and e-mail (else a no-reply address, as Gitea). */
  private identityOf(user: UserDto | undefined, actor?: ActorDto): GitIdentity {
    return userGitIdentity(user, actor?.login ?? 'cairn', this.views.rootUrl);
  }

  /** A move of one branch by `actor`, for branch protection's decision. */
  private refWrite(scope: ViewScope, actor: ActorDto, dir: string, branch: string, oldSha: string, newSha: string): ProposedRefWrite {
    return { repoId: scope.repo.id, actorId: actor.id, dir, updates: [{ ref: branchRef(branch), old: oldSha, new: newSha }] };
  }

  /** A move of one branch by `actor`, ready to be recorded ({@link RefUpdates.prepare}). */
  private prepareMove(scope: ViewScope, actor: ActorDto, dir: string, branch: string, oldSha: string, newSha: string): Promise<PreparedRefUpdates> {
    return this.refUpdates.prepare({
      repoId: scope.repo.id,
      dir,
      ownerId: scope.repo.ownerId,
      ownerName: scope.repo.ownerName,
      name: scope.repo.name,
      lines: [{ ref: branchRef(branch), old: oldSha, new: newSha }],
      pusherId: actor.id,
    });
  }
}
