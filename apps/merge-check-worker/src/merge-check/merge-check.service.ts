import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, PullSubjects, ZERO_SHA, checkNowAfterBaseMove, mergeCheckPriority,
  type CheckTargetReply, type MergeCheckJobData, type PullCheckCandidate, type PushEventData,
  type ReportMergeabilityReply,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import { WORKER_SETTINGS, type WorkerSettings } from '../config/worker-settings.js';
import { repositoryPath, runCheck } from './git-check.js';
import { MergeCheckQueue } from './merge-check.queue.js';

/** What one job did (the job's return value, kept in Redis with the finished job). */
export type JobOutcome =
  | { ran: true; status: 'mergeable' | 'conflict' | 'error'; applied: boolean; ms: number }
  | { ran: false; reason: 'gone' | 'stale' };

/** What one push event led to. */
export interface PushOutcome {
  /** Pull requests whose base moved (marked `checking`). */
  baseMoved: number;
  /** Of those, queued now (active within the delay window). */
  queuedForBase: number;
  /** Pull requests whose head moved, all queued. */
  queuedForHead: number;
}

/**
 * The worker's rules: which pull requests to check after a push (head moved: all, at once; base moved: only those
 * active within `DELAY_CHECK_FOR_INACTIVE_DAYS`, recent first), and how to run one check and report it.
 */
@Injectable()
export class MergeCheckService {
  private readonly logger = new Logger('MergeCheckService');
  /** Checks actually run by this process (a `git merge-tree`), for metrics and tests. */
  checksRun = 0;

  constructor(
    private readonly rpc: RpcClient,
    private readonly queue: MergeCheckQueue,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  /** Handles `repo.evt.push.received`: all base moves first, then head moves (a push may move both of a PR). */
  async onPush(data: PushEventData, now = new Date()): Promise<PushOutcome> {
    const repoId = data.repository.id;
    const branches = data.updates
      .filter((u) => u.ref.startsWith('refs/heads/') && u.new !== ZERO_SHA && !/^0+$/.test(u.new))
      .map((u) => ({ branch: u.ref.slice('refs/heads/'.length), newSha: u.new }));
    const outcome: PushOutcome = { baseMoved: 0, queuedForBase: 0, queuedForHead: 0 };
    for (const b of branches) {
      const moved = await this.rpc.send<PullCheckCandidate[]>(PullSubjects.baseMoved, { repoId, ...b }, { timeoutMs: 60_000 });
      outcome.baseMoved += moved.length;
      outcome.queuedForBase += await this.queueActive(moved, now);
    }
    for (const b of branches) {
      const moved = await this.rpc.send<PullCheckCandidate[]>(PullSubjects.headMoved, {
        repoId,
        ...b,
        pusherId: data.pusher?.id ?? null,
      });
      for (const c of moved) await this.queue.enqueue(this.jobData(c), MERGE_CHECK_URGENT_PRIORITY);
      outcome.queuedForHead += moved.length;
    }
    if (outcome.baseMoved || outcome.queuedForHead) {
      this.logger.log(
        `push to repository ${repoId}: ${outcome.baseMoved} pull request(s) with a moved base, ${outcome.queuedForBase} ` +
          `queued (the others delayed), ${outcome.queuedForHead} with a moved head queued`,
      );
    }
    return outcome;
  }

  /** Queues the pull requests whose base moved and that were active recently; most recent first, fairly spread. */
  private async queueActive(moved: PullCheckCandidate[], now: Date): Promise<number> {
    const active = moved
      .map((c) => ({ c, updated: new Date(c.issueUpdatedAt) }))
      .filter(({ updated }) => checkNowAfterBaseMove(updated, now, this.settings.delayCheckForInactiveDays))
      .sort((a, b) => b.updated.getTime() - a.updated.getTime());
    let rank = 0;
    for (const { c, updated } of active) {
      await this.queue.enqueue(this.jobData(c), mergeCheckPriority(updated, now, rank++));
    }
    return active.length;
  }

  private jobData(c: PullCheckCandidate): MergeCheckJobData {
    return { pullId: c.id, repoId: c.repoId, baseSha: c.baseSha, headSha: c.headSha };
  }

  /**
   * Runs one check job: reloads the pull request (jobs carry ids only), skips it if its commits moved on (a newer job
   * exists), runs `merge-tree` read-only and reports. Failures to reach repo-service throw (BullMQ retries); a git
   * failure or timeout is a result (`error`), never retried.
   */
  async process(data: MergeCheckJobData): Promise<JobOutcome> {
    const target = await this.rpc.send<CheckTargetReply | null>(PullSubjects.checkTarget, { pullId: data.pullId });
    if (!target) return { ran: false, reason: 'gone' };
    if (target.baseSha !== data.baseSha || target.headSha !== data.headSha) return { ran: false, reason: 'stale' };
    const started = Date.now();
    let result;
    try {
      const dir = repositoryPath(this.common.repoRoot, target.ownerName, target.repoName);
      this.checksRun += 1;
      result = await runCheck(dir, data.baseSha, data.headSha, this.settings.checkTimeoutMs);
    } catch (err) {
      result = { status: 'error' as const, conflictedFiles: [], message: (err as Error).message, outcome: 'error' as const };
    }
    const reply = await this.rpc.send<ReportMergeabilityReply>(PullSubjects.reportMergeability, {
      pullId: data.pullId,
      status: result.status,
      conflicted_files: result.conflictedFiles,
      base_sha: data.baseSha,
      head_sha: data.headSha,
      ...(result.mergeBase ? { merge_base: result.mergeBase } : {}),
      ...(result.message ? { message: result.message.slice(0, 2000) } : {}),
    });
    return { ran: true, status: result.status, applied: reply.applied, ms: Date.now() - started };
  }
}
