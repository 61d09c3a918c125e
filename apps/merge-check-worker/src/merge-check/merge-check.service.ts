import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  MERGE_CHECK_URGENT_PRIORITY, PullSubjects, checkNowAfterBaseMove, isZeroId, mergeCheckPriority,
  type CheckTargetReply, type MergeCheckJobData, type PullCheckCandidate, type PushEventData,
  type ReportMergeabilityReply,
} from '@cairn/contracts';
import { COMMON_SETTINGS, repoStoragePath, RpcClient, type CommonSettings } from '@cairn/platform';
import { WORKER_SETTINGS, type WorkerSettings } from '../config/worker-settings.js';
import type { CheckResult } from './git-check.js';
import { GitChecker } from './git-checker.js';
import { MergeCheckQueue } from './merge-check.queue.js';
import { RepositoryPaths } from './repository-paths.js';

/** What one job did (the job's return value, kept in Redis with the finished job). */
export type JobOutcome =
  | { ran: true; status: 'mergeable' | 'conflict' | 'error'; applied: boolean; ms: number }
  | { ran: false; reason: 'gone' | 'stale' };

/** Where a check runs: a repository path, or why there is none (a name the storage rule refuses). */
interface Location {
  dir: string;
  refused?: string;
}

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
    private readonly git: GitChecker,
    private readonly paths: RepositoryPaths,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  /** Handles `repo.evt.push.received`: all base moves first, then head moves (a push may move both of a PR). */
  async onPush(data: PushEventData, now = new Date()): Promise<PushOutcome> {
    const repoId = data.repository.id;
    const branches = data.updates
      .filter((u) => u.ref.startsWith('refs/heads/') && !isZeroId(u.new))
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
   * Runs one check job: `merge-tree` read-only on the repository, then one report; repo-service stores the result
   * only if the commits are still the pull request's current ones, so a job whose pull request moved on or closed
   * meanwhile is merely not applied. Where the repository lives is asked once per repository and remembered
   * ({@link RepositoryPaths}); a check that fails in a remembered place runs once more with the place asked again
   * and new git processes (a rename, or a repack under a long-lived process). Failures to reach repo-service throw
   * (BullMQ retries); a git failure or timeout is a result (`error`), never retried by BullMQ.
   */
  async process(data: MergeCheckJobData): Promise<JobOutcome> {
    const remembered = this.paths.get(data.repoId);
    const where = remembered ? { dir: remembered } : await this.locate(data);
    if (!('dir' in where)) return where;
    const started = Date.now();
    this.checksRun += 1;
    let result = await this.run(where, data);
    if (result.status === 'error' && remembered && Date.now() - started < this.settings.checkTimeoutMs) {
      this.paths.forget(data.repoId);
      const again = await this.locate(data);
      if (!('dir' in again)) return again;
      result = await this.run(again, data, true);
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

  /**
   * Asks repo-service where the pull request's repository lives (remembered for the next checks), or finds that the
   * job has nothing to do. A name the storage rule refuses gives a path that fails the check (stored as `error`).
   */
  private async locate(data: MergeCheckJobData): Promise<Location | JobOutcome> {
    const target = await this.rpc.send<CheckTargetReply | null>(PullSubjects.checkTarget, { pullId: data.pullId });
    if (!target) return { ran: false, reason: 'gone' };
    if (target.baseSha !== data.baseSha || target.headSha !== data.headSha) return { ran: false, reason: 'stale' };
    let dir: string;
    try {
      dir = repoStoragePath(this.common.repoRoot, target.ownerName, target.repoName);
    } catch (err) {
      return { dir: '', refused: (err as Error).message };
    }
    this.paths.set(target.repoId, dir);
    return { dir };
  }

  private async run(where: Location, data: MergeCheckJobData, fresh = false): Promise<CheckResult> {
    try {
      if (where.refused) throw new Error(where.refused);
      return await this.git.check(where.dir, data.baseSha, data.headSha, this.settings.checkTimeoutMs, { fresh });
    } catch (err) {
      return { status: 'error', conflictedFiles: [], message: (err as Error).message, outcome: 'error' };
    }
  }
}
