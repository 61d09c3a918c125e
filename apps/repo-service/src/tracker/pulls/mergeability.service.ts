import { Injectable, Logger } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, PullRequestEvents,
  type CheckTargetReply, type MergeableState, type ReportMergeabilityReply,
  type ReportMergeabilityRequest,
} from '@cairn/contracts';
import { MicroBatcher, newEvent, outboxRow, type Settled, EventOutbox } from '@cairn/platform';
import { MergeCheckQueue, checkJobData, type CheckablePull } from './merge-check.queue.js';
import { PullRenderer } from '../issue-core/pull-renderer.js';
import { effectiveStatus, type PullIssueRow } from '../issue-core/pull.mapper.js';
import { PullsRepository, type StoredResult } from './pulls.repository.js';

/** Report batches written at once (see `MergeabilityService.reports`). */
const REPORT_BATCHES_IN_FLIGHT = 4;

/** Owns the state, stores current results, queues checks someone waits for; moved branches are `RefUpdates`' part. */
@Injectable()
export class MergeabilityService {
  private readonly logger = new Logger('MergeabilityService');
  /** Up to {@link REPORT_BATCHES_IN_FLIGHT} batches at once, so a lone report never waits for another's write. */
  private readonly reports = new MicroBatcher<ReportMergeabilityRequest, ReportMergeabilityReply>(
    (reqs) => this.storeReports(reqs),
    { maxBatch: 200, maxInFlight: REPORT_BATCHES_IN_FLIGHT },
  );

  constructor(
    private readonly pulls: PullsRepository,
    private readonly queue: MergeCheckQueue,
    private readonly renderer: PullRenderer,
    private readonly outbox: EventOutbox,
  ) {}

  queueCheck(pr: CheckablePull, priority = MERGE_CHECK_URGENT_PRIORITY): Promise<string> {
    return this.queue.enqueue(checkJobData(pr), priority);
  }

  /** A view queues a still-`checking` (delayed) pull request at once, without waiting; failures are only logged. */
  async onView(row: PullIssueRow): Promise<void> {
    const pr = row.pullRequest;
    if (row.state !== 'open' || pr.merged || effectiveStatus(pr) !== 'checking') return;
    await this.queueCheck(pr).catch((err) => this.logger.warn(`could not queue the check of pull ${pr.id}: ${(err as Error).message}`));
  }

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

  /** Stored only for the pull's current commits; reports arriving together share one read and one write. */
  report(req: ReportMergeabilityRequest): Promise<ReportMergeabilityReply> {
    return this.reports.add(req);
  }

  /** In rounds of distinct pull requests: one statement updates a row once. */
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
          newEvent(PullRequestEvents.mergeabilityChanged, {
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
          event: row,
        });
        stored.push(k);
      }
    }
    const applied = await this.pulls.storeResultsWithEvents(results, now);
    for (const k of stored) out[k] = { ok: true, value: { applied: applied.has(reqs[k].pullId) } };
    // No wait to gather a burst: the relay coalesces wake-ups itself (those arriving during a pass make one more).
    if (applied.size) this.outbox.kick();
    return out;
  }
}
