import { Inject, Injectable } from '@nestjs/common';
import { PullSubjects, type MergeCheckJobData } from '@cairn/contracts';
import { COMMON_SETTINGS, mergeChecks, RpcClient, type CommonSettings } from '@cairn/platform';
import { repoStoragePath } from '@cairn/git';
import { WORKER_SETTINGS, type WorkerSettings } from '../config/worker-settings.js';
import type { CheckResult } from './git-check.js';
import { GitChecker } from './git-checker.js';
import { RepositoryPaths } from './repository-paths.js';

/** What one job did (the job's return value, kept in Redis with the finished job). */
export type JobOutcome =
  | { ran: true; status: 'mergeable' | 'conflict' | 'error'; applied: boolean; ms: number }
  | { ran: false; reason: 'gone' | 'stale' };

interface Location {
  dir: string;
  refused?: string;
}

/** Runs one check and reports it; which pull requests are checked, and when, is repo-service's part. */
@Injectable()
export class MergeCheckService {
  checksRun = 0;

  constructor(
    private readonly rpc: RpcClient,
    private readonly git: GitChecker,
    private readonly paths: RepositoryPaths,
    @Inject(WORKER_SETTINGS) private readonly settings: WorkerSettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  // repo-service stores a result only for the pull request's current commits. A check failing at a remembered path
  // runs once more with the path asked again (rename, repack). Unreachable repo-service throws (BullMQ retries); a
  // git failure or timeout is an `error` result, never retried.
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
    const reply = await this.rpc.send(PullSubjects.reportMergeability, {
      pullId: data.pullId,
      status: result.status,
      conflicted_files: result.conflictedFiles,
      base_sha: data.baseSha,
      head_sha: data.headSha,
      ...(result.mergeBase ? { merge_base: result.mergeBase } : {}),
      ...(result.message ? { message: result.message.slice(0, 2000) } : {}),
    });
    mergeChecks.inc({ result: result.status });
    return { ran: true, status: result.status, applied: reply.applied, ms: Date.now() - started };
  }

  /** Where the pull request's repository lives (remembered), or the outcome when the job has nothing to do. */
  private async locate(data: MergeCheckJobData): Promise<Location | JobOutcome> {
    const target = await this.rpc.send(PullSubjects.checkTarget, { pullId: data.pullId });
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
