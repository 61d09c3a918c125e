import { Injectable, Logger } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, PullRequestEvents, ZERO_SHA,
  type BaseMovedRequest, type CheckTargetReply, type HeadMovedRequest, type MergeableState, type PullCheckCandidate,
  type PullRequestEventData, type ReportMergeabilityReply, type ReportMergeabilityRequest,
} from '@cairn/contracts';
import { pullHeadRef, updateRef } from '../merge/git-plumbing.js';
import { newEvent, outboxRow } from '@cairn/platform';
import { EventOutbox } from '../prisma/event-outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { RepoStorage } from '../storage/repo-storage.js';
import { MergeCheckQueue } from './merge-check.queue.js';
import { PullRenderer } from './pull-renderer.js';
import { effectiveStatus, type PullIssueRow } from './pull.mapper.js';
import { PullsRepository, type CandidateRow } from './pulls.repository.js';
import { inTx } from '../issues/tx.js';

function toCandidate(r: CandidateRow): PullCheckCandidate {
  return {
    id: r.id,
    repoId: r.repoId,
    index: r.index,
    issueUpdatedAt: r.issueUpdatedAt.toISOString(),
    baseSha: r.baseSha,
    headSha: r.headSha,
  };
}

/**
 * repo-service's side of mergeability: it owns the state (`checking`, results and the commits they are for),
 * answers the worker about moved branches, stores results that are still current, and queues the checks someone is
 * waiting for (creation, views, merges).
 */
@Injectable()
export class MergeabilityService {
  private readonly logger = new Logger('MergeabilityService');

  constructor(
    private readonly prisma: PrismaService,
    private readonly pulls: PullsRepository,
    private readonly queue: MergeCheckQueue,
    private readonly renderer: PullRenderer,
    private readonly storage: RepoStorage,
    private readonly outbox: EventOutbox,
  ) {}

  /** Queues the check of a pull request's current commits (one job per commit pair). */
  queueCheck(pr: { id: number; repoId: number; baseSha: string; headSha: string }, priority = MERGE_CHECK_URGENT_PRIORITY): Promise<string> {
    return this.queue.enqueue({ pullId: pr.id, repoId: pr.repoId, baseSha: pr.baseSha, headSha: pr.headSha }, priority);
  }

  /**
   * A view of a pull request (API GET, web page, merge box): a pull request still `checking` — typically a delayed
   * check — is queued at once. The view's own answer does not wait for it. Queueing failures are logged, never
   * turned into a failed view.
   */
  async onView(row: PullIssueRow): Promise<void> {
    const pr = row.pullRequest;
    if (row.state !== 'open' || pr.merged || effectiveStatus(pr) !== 'checking') return;
    await this.queueCheck(pr).catch((err) => this.logger.warn(`could not queue the check of pull ${pr.id}: ${(err as Error).message}`));
  }

  /** `repo.pull-request.base-moved`: one statement marks them all `checking` and returns them. */
  async baseMoved(req: BaseMovedRequest): Promise<PullCheckCandidate[]> {
    if (req.newSha === ZERO_SHA) return [];
    return (await this.pulls.markBaseMoved(req.repoId, req.branch, req.newSha)).map(toCandidate);
  }

  /**
   * `repo.pull-request.head-moved`: the pull requests from the branch get the new head (and `refs/pull/N/head`),
   * become `checking`, and get a `synchronized` event; all of them (also those already at the new head but still
   * `checking`, for redelivered events) are returned to be checked at once.
   */
  async headMoved(req: HeadMovedRequest): Promise<PullCheckCandidate[]> {
    if (!/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(req.newSha) || /^0+$/.test(req.newSha)) return [];
    // Users and the repository are loaded before the transaction (no remote calls while rows are locked).
    const preview = await inTx(this.prisma, (tx) => this.pulls.openFromHead(tx, req.repoId, req.branch));
    if (preview.length === 0) return [];
    const r = await this.renderer.prepareSystem(req.repoId, preview, req.pusherId ?? null);
    const now = new Date();
    const result = await inTx(this.prisma, async (tx) => {
      const rows = await this.pulls.openFromHead(tx, req.repoId, req.branch);
      const out: CandidateRow[] = [];
      const moved: { row: PullIssueRow; before: string }[] = [];
      for (const row of rows) {
        const pr = row.pullRequest;
        if (pr.headSha !== req.newSha) {
          await this.pulls.setCommits(tx, pr.id, { headSha: req.newSha });
          await tx.issue.update({ where: { id: row.id }, data: { updatedAt: now } });
          moved.push({ row, before: pr.headSha });
        } else if (effectiveStatus(pr) !== 'checking') {
          continue;
        }
        out.push({ id: pr.id, repoId: pr.repoId, index: row.index, issueUpdatedAt: now, baseSha: pr.baseSha, headSha: req.newSha });
      }
      if (moved.length) {
        const fresh = (await tx.issue.findMany({
          where: { id: { in: moved.map((m) => m.row.id) } },
          include: { pullRequest: true },
        })) as PullIssueRow[];
        for (const m of moved) {
          const row = fresh.find((f) => f.id === m.row.id)!;
          await this.outbox.record<PullRequestEventData>(tx, PullRequestEvents.synchronized, {
            action: 'synchronized',
            number: row.index,
            pullRequest: r.pull(row),
            before: m.before,
            after: req.newSha,
            repository: r.repository,
            sender: r.sender,
          });
        }
      }
      return { out, moved };
    });
    if (result.moved.length) this.outbox.kick();
    const dir = this.storage.pathFor(r.ctx.repo);
    for (const m of result.moved) {
      await updateRef(dir, pullHeadRef(m.row.index), req.newSha, undefined, 'cairn: pull request head').catch((err) =>
        this.logger.warn(`refs/pull/${m.row.index}/head: ${(err as Error).message}`),
      );
    }
    return result.out.map(toCandidate);
  }

  /** `repo.pull-request.check-target`. */
  async checkTarget(pullId: number): Promise<CheckTargetReply | null> {
    const t = await this.pulls.checkTarget(pullId);
    if (!t) return null;
    return {
      pullId: t.id,
      repoId: t.repoId,
      ownerName: t.ownerName,
      repoName: t.repoName,
      baseSha: t.baseSha,
      headSha: t.headSha,
      status: t.status as MergeableState,
    };
  }

  /**
   * `repo.pull-request.report-mergeability`: stored only if the commits are still the pull request's current ones
   * (else ignored: a newer check is or will be queued), then `mergeability-changed` is published.
   */
  async report(req: ReportMergeabilityRequest): Promise<ReportMergeabilityReply> {
    const before = (await this.prisma.issue.findFirst({
      where: { pullRequest: { id: req.pullId } },
      include: { pullRequest: true },
    })) as PullIssueRow | null;
    const pr = before?.pullRequest;
    // Stale (the commits moved on) or already merged: nothing to store, nothing to render.
    if (!before || !pr || pr.merged || pr.baseSha !== req.base_sha || pr.headSha !== req.head_sha) return { applied: false };
    const now = new Date();
    const files = req.status === 'conflict' ? (req.conflicted_files ?? []) : [];
    // The pull request as it will be once stored: the event carries it.
    const after: PullIssueRow = {
      ...before,
      pullRequest: {
        ...pr,
        status: req.status,
        conflictedFiles: files,
        checkMessage: req.status === 'error' ? (req.message ?? 'the check failed') : null,
        checkedBaseSha: req.base_sha,
        checkedHeadSha: req.head_sha,
        checkedAt: now,
        mergeBase: req.merge_base || pr.mergeBase,
      },
    };
    const r = await this.renderer.prepareSystem(before.repoId, [after]);
    const event = newEvent<PullRequestEventData>(PullRequestEvents.mergeabilityChanged, {
      action: 'mergeability_changed',
      number: after.index,
      pullRequest: r.pull(after),
      mergeability: { status: req.status, conflictedFiles: files, baseSha: req.base_sha, headSha: req.head_sha },
      repository: r.repository,
      sender: null,
    });
    const row = outboxRow(event);
    const applied = await this.pulls.storeResultWithEvent(
      req.pullId,
      { status: req.status, files, baseSha: req.base_sha, headSha: req.head_sha, mergeBase: req.merge_base, message: req.message },
      now,
      { id: row.id, subject: row.subject, payload: row.payload },
    );
    if (applied) this.outbox.kick();
    return { applied };
  }
}
