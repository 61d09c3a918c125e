import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  DEFAULT_WARM_MAX_ENTRIES, headRef, maintainCommitGraph, type PushedRef, tipsToWarm, warmLastCommits,
} from '@cairn/git';

export interface CommitGraphMaintainerOptions {
  /** Repositories maintained at the same time (each run is one `git commit-graph write`). */
  concurrency?: number;
  /** One run is stopped (SIGTERM) after this long; the next push starts over from what git kept. */
  timeoutMs?: number;
  /** At shutdown, runs in progress get this long to finish before git is stopped (SIGTERM). */
  shutdownGraceMs?: number;
  /** Pushed branches whose trees have more entries than this are not warmed; 0 turns the warm-up off. */
  warmMaxEntries?: number;
  /** One warm-up walk is stopped after this long (what it found is kept). */
  warmTimeoutMs?: number;
}

interface Waiting {
  promise: Promise<void>;
  resolve: () => void;
  /** Pushed ref → its newest value among the pushes this run serves. */
  pushed: Map<string, string>;
}

function waiting(): Waiting {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve, pushed: new Map() };
}

/**
 * Keeps repositories' commit-graphs current after pushes, off the request path: {@link schedule} returns at once
 * and the work runs in the background, a few repositories at a time.
 *
 * Requests coalesce per repository: while a run is waiting to start, further requests join it, so a burst of pushes
 * costs one run; a request made while a run is in progress queues exactly one follow-up run (the push may have
 * added commits that run no longer sees). Failures are logged, never thrown — a missing or stale commit-graph only
 * makes reads slower, never wrong. At shutdown nothing new starts and runs in progress are awaited (and stopped
 * cleanly after a grace period).
 *
 * After the graph write, the run warms the last-commit cache for the new tips of the pushed branches (Gitea's
 * `CacheRef`), so the first contents listing at a new tip needs no history walk; the walk comes after the graph
 * write so that it uses the fresh graph. Warm-up failures are logged like graph failures.
 */
export class CommitGraphMaintainer implements OnApplicationShutdown {
  private readonly logger = new Logger('CommitGraph');
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly shutdownGraceMs: number;
  private readonly warmMaxEntries: number;
  private readonly warmTimeoutMs: number;
  /** Repository → the run waiting to start (at most one each), in request order. */
  private readonly waiting = new Map<string, Waiting>();
  /** Repository → the run in progress. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private closed = false;
  private pumpQueued = false;

  constructor(options: CommitGraphMaintainerOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.timeoutMs = options.timeoutMs ?? 10 * 60_000;
    this.shutdownGraceMs = options.shutdownGraceMs ?? 5_000;
    this.warmMaxEntries = options.warmMaxEntries ?? DEFAULT_WARM_MAX_ENTRIES;
    this.warmTimeoutMs = options.warmTimeoutMs ?? 60_000;
  }

  /**
   * Asks for the repository's commit-graph to be brought up to date, then for the last commits at the new tips of
   * `pushed` branches to be cached. Resolves (never rejects) when a run that started after this call has ended, or
   * at once after shutdown; callers on a request path do not await it.
   */
  schedule(repoPath: string, pushed: readonly PushedRef[] = []): Promise<void> {
    if (this.closed) return Promise.resolve();
    let entry = this.waiting.get(repoPath);
    if (!entry) {
      entry = waiting();
      this.waiting.set(repoPath, entry);
      // Started from a later turn of the event loop, so requests made together join one run.
      if (!this.pumpQueued) {
        this.pumpQueued = true;
        setImmediate(() => {
          this.pumpQueued = false;
          this.pump();
        });
      }
    }
    // Pushes joined into one run: a ref pushed twice is warmed at its latest value only.
    for (const u of pushed) {
      entry.pushed.delete(u.ref);
      entry.pushed.set(u.ref, u.new);
    }
    return entry.promise;
  }

  /** Resolves when nothing is waiting or running (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.running.size || (this.waiting.size && !this.closed)) {
      await Promise.all([...this.running.values(), ...[...this.waiting.values()].map((w) => w.promise)]);
    }
  }

  /** Starts waiting runs while there is room; a repository's next run waits for its current one. */
  private pump(): void {
    if (this.closed) return;
    for (const [repoPath, entry] of this.waiting) {
      if (this.running.size >= this.concurrency) return;
      if (this.running.has(repoPath)) continue;
      this.waiting.delete(repoPath);
      const run = this.runOnce(repoPath, entry.pushed).finally(() => {
        this.running.delete(repoPath);
        entry.resolve();
        this.pump();
      });
      this.running.set(repoPath, run);
    }
  }

  private async runOnce(repoPath: string, pushed: Map<string, string>): Promise<void> {
    try {
      const mode = await maintainCommitGraph(repoPath, { timeoutMs: this.timeoutMs, signal: this.abort.signal });
      if (mode === 'replace') this.logger.log(`wrote a commit-graph with Bloom filters for ${repoPath}`);
    } catch (err) {
      if (!this.abort.signal.aborted) {
        this.logger.warn(`commit-graph maintenance of ${repoPath} failed: ${(err as Error).message}`);
      }
    }
    // Without a fresh graph the walk is only slower, so it runs even when the graph write failed.
    if (pushed.size) await this.warm(repoPath, pushed);
  }

  /** Caches the last commits of every path at the new tips of the pushed branches (the default branch first). */
  private async warm(repoPath: string, pushed: Map<string, string>): Promise<void> {
    if (this.warmMaxEntries <= 0 || this.abort.signal.aborted) return;
    try {
      const refs = [...pushed].map(([ref, value]) => ({ ref, new: value }));
      const tips = tipsToWarm(refs, await headRef(repoPath));
      for (const tip of tips) {
        if (this.abort.signal.aborted) return;
        const outcome = await warmLastCommits(repoPath, tip, {
          maxEntries: this.warmMaxEntries,
          timeoutMs: this.warmTimeoutMs,
          signal: this.abort.signal,
        });
        this.logger.debug(
          outcome.kind === 'warmed'
            ? `cached last commits of ${outcome.found}/${outcome.paths} paths at ${tip} in ${repoPath}`
            : `not warming last commits at ${tip} in ${repoPath}: more than ${outcome.maxEntries} tree entries`,
        );
      }
    } catch (err) {
      if (!this.abort.signal.aborted) {
        this.logger.warn(`warming last commits of ${repoPath} failed: ${(err as Error).message}`);
      }
    }
  }

  /** Stops taking work; waiting runs are dropped, runs in progress are awaited (stopped after the grace period). */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.waiting.values()) entry.resolve();
    this.waiting.clear();
    if (this.running.size === 0) return;
    const grace = setTimeout(() => this.abort.abort(), this.shutdownGraceMs);
    try {
      await Promise.all(this.running.values());
    } finally {
      clearTimeout(grace);
    }
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
