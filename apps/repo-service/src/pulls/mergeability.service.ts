import { Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, MERGE_CHECK_URGENT_PRIORITY, PullRequestEvents, isObjectId, isZeroId,
  type BaseMovedRequest, type CheckTargetReply, type HeadMovedRequest, type MergeableState, type PullCheckCandidate,
  type PullRequestEventData, type ReportMergeabilityReply, type ReportMergeabilityRequest,
} from '@cairn/contracts';
import { pullHeadRef, resolveBranch, updateRef } from '../merge/git-plumbing.js';
import { MicroBatcher, newEvent, outboxRow, type Settled } from '@cairn/platform';
import { EventOutbox } from '../prisma/event-outbox.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { RepoStorage } from '../storage/repo-storage.js';
import { MergeCheckQueue } from './merge-check.queue.js';
import { PullRenderer } from './pull-renderer.js';
import { effectiveStatus, type PullIssueRow } from './pull.mapper.js';
import { PullsRepository, type CandidateRow, type StoredResult } from './pulls.repository.js';
import { inTx } from '../issues/tx.js';
import { RepoViews } from '../issues/repo-views.js';

/** Report batches written at once (see `MergeabilityService.reports`). */
const REPORT_BATCHES_IN_FLIGHT = 4;
/** How long stored results' events wait for the relay, so that one relay pass publishes a burst of them. */
const EVENTS_KICK_DELAY_MS = 20;

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
  /**
   * Reports arriving together are stored together. Up to {@link REPORT_BATCHES_IN_FLIGHT} batches are written at
   * once, so a lone report never waits for another's write; beyond that, what arrives meanwhile forms the next batch.
   */
  private readonly reports = new MicroBatcher<ReportMergeabilityRequest, ReportMergeabilityReply>(
    (reqs) => this.storeReports(reqs),
    { maxBatch: 200, maxInFlight: REPORT_BATCHES_IN_FLIGHT },
  );
  private kickTimer?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    private readonly pulls: PullsRepository,
    private readonly queue: MergeCheckQueue,
    private readonly renderer: PullRenderer,
    private readonly storage: RepoStorage,
    private readonly outbox: EventOutbox,
    private readonly views: RepoViews,
  ) {}

  /**
   * Push events arrive in order, but the API acts on newer commits before the worker gets to an event, and a failed
   * event is retried after later ones. Acting on an event whose commit is no longer the branch's tip would move pull
   * requests back to older commits — and then forward again to a commit pair already checked. So a stale event is
   * skipped: the event of the current tip (always published, after this one) does the work. Read from git, not from a
   * cache: a renamed repository must not make a current event look stale. A repository deleted since has nothing
   * to move (and its event must not fail, or it would be retried for ever).
   */
  private async isBranchTip(repoId: number, branch: string, sha: string): Promise<boolean> {
    const repo = await this.views.row(repoId).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return null;
      throw err;
    });
    if (!repo) return false;
    const tip = await resolveBranch(this.storage.pathFor({ ownerName: repo.ownerName, name: repo.name }), branch);
    if (tip !== sha) this.logger.log(`skipping a stale move of ${branch} in repository ${repoId} to ${sha} (tip: ${tip ?? 'none'})`);
    return tip === sha;
  }

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
    if (isZeroId(req.newSha)) return [];
    if (!(await this.isBranchTip(req.repoId, req.branch, req.newSha))) return [];
    return (await this.pulls.markBaseMoved(req.repoId, req.branch, req.newSha)).map(toCandidate);
  }

  /**
   * `repo.pull-request.head-moved`: the pull requests from the branch get the new head (and `refs/pull/N/head`),
   * become `checking`, and get a `synchronized` event; all of them (also those already at the new head but still
   * `checking`, for redelivered events) are returned to be checked at once.
   */
  async headMoved(req: HeadMovedRequest): Promise<PullCheckCandidate[]> {
    if (!isObjectId(req.newSha) || isZeroId(req.newSha)) return [];
    if (!(await this.isBranchTip(req.repoId, req.branch, req.newSha))) return [];
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
   * (else ignored: a newer check is or will be queued), then `mergeability-changed` is published. Reports arriving
   * together (several workers, a worker's concurrent checks) are stored together: one read and one write for all.
   */
  report(req: ReportMergeabilityRequest): Promise<ReportMergeabilityReply> {
    return this.reports.add(req);
  }

  /**
   * Stores a batch of reports in rounds of distinct pull requests (one statement updates a row once; a second report
   * for the same pull request, a retry or a stale one, goes into the next round).
   */
  private async storeReports(reqs: ReportMergeabilityRequest[]): Promise<Settled<ReportMergeabilityReply>[]> {
    const out: Settled<ReportMergeabilityReply>[] = new Array(reqs.length);
    let rest = reqs.map((req, i) => ({ req, i }));
    while (rest.length) {
      const round: typeof rest = [];
      const later: typeof rest = [];
      const seen = new Set<number>();
      for (const x of rest) {
        (seen.has(x.req.pullId) ? later : round).push(x);
        seen.add(x.req.pullId);
      }
      const results = await this.storeRound(round.map((x) => x.req));
      round.forEach((x, k) => (out[x.i] = results[k]));
      rest = later;
    }
    return out;
  }

  /** Reports of distinct pull requests: one read of their rows, their events rendered, one statement storing all. */
  private async storeRound(reqs: ReportMergeabilityRequest[]): Promise<Settled<ReportMergeabilityReply>[]> {
    const rows = new Map((await this.pulls.findForReports(reqs.map((r) => r.pullId))).map((r) => [r.pullRequest.id, r]));
    const now = new Date();
    const out: Settled<ReportMergeabilityReply>[] = reqs.map(() => ({ ok: true, value: { applied: false } }));
    // The pull requests as they will be once stored (their events carry them), by repository.
    const byRepo = new Map<number, { k: number; req: ReportMergeabilityRequest; after: PullIssueRow; files: string[] }[]>();
    reqs.forEach((req, k) => {
      const before = rows.get(req.pullId);
      const pr = before?.pullRequest;
      // Stale (the commits moved on) or already merged: nothing to store, nothing to render.
      if (!before || !pr || pr.merged || pr.baseSha !== req.base_sha || pr.headSha !== req.head_sha) return;
      const files = req.status === 'conflict' ? (req.conflicted_files ?? []) : [];
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
      const list = byRepo.get(before.repoId) ?? [];
      list.push({ k, req, after, files });
      byRepo.set(before.repoId, list);
    });
    const results: StoredResult[] = [];
    const stored: number[] = [];
    for (const [repoId, items] of byRepo) {
      let r;
      try {
        r = await this.renderer.prepareSystem(repoId, items.map((i) => i.after));
      } catch (error) {
        for (const i of items) out[i.k] = { ok: false, error };
        continue;
      }
      for (const { k, req, after, files } of items) {
        const row = outboxRow(
          newEvent<PullRequestEventData>(PullRequestEvents.mergeabilityChanged, {
            action: 'mergeability_changed',
            number: after.index,
            pullRequest: r.pull(after),
            mergeability: { status: req.status, conflictedFiles: files, baseSha: req.base_sha, headSha: req.head_sha },
            repository: r.repository,
            sender: null,
          }),
        );
        results.push({
          pullId: req.pullId,
          status: req.status,
          files,
          baseSha: req.base_sha,
          headSha: req.head_sha,
          mergeBase: req.merge_base,
          message: req.message,
          event: { id: row.id, subject: row.subject, payload: row.payload },
        });
        stored.push(k);
      }
    }
    const applied = await this.pulls.storeResultsWithEvents(results, now);
    for (const k of stored) out[k] = { ok: true, value: { applied: applied.has(reqs[k].pullId) } };
    if (applied.size) this.kickSoon();
    return out;
  }

  /**
   * Has the outbox relay publish stored results' events shortly: during a backlog results arrive every few
   * milliseconds, and a relay pass per result (a transaction with a flushed commit each) cost as much as storing the
   * result and slowed the next report down. A pass a few milliseconds later publishes them all.
   */
  private kickSoon(): void {
    if (this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      this.outbox.kick();
    }, EVENTS_KICK_DELAY_MS);
    this.kickTimer.unref();
  }
}
