import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  DEFAULT_WARM_MAX_ENTRIES, headRef, maintainCommitGraph, type PushedRef, tipsToWarm, warmLastCommits,
} from '@cairn/git';

export interface CommitGraphMaintainerOptions {
  /** Each run is one `git commit-graph write`. */
  concurrency?: number;
  /** SIGTERM; the next push starts over from what git kept. */
  timeoutMs?: number;
  shutdownGraceMs?: number;
  /** 0 turns the warm-up off. */
  warmMaxEntries?: number;
  /** What it found is kept. */
  warmTimeoutMs?: number;
}

interface Waiting {
  promise: Promise<void>;
  resolve: () => void;
  pushed: Map<string, string>;
}

function waiting(): Waiting {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve, pushed: new Map() };
}

// Off the request path: a burst of pushes coalesces into one run, one arriving mid-run queues one follow-up.
// Failures only make reads slower, never wrong, so they are logged.
export class CommitGraphMaintainer implements OnApplicationShutdown {
  private readonly logger = new Logger('CommitGraph');
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly shutdownGraceMs: number;
  private readonly warmMaxEntries: number;
  private readonly warmTimeoutMs: number;
  /** At most one each, in request order. */
  private readonly waiting = new Map<string, Waiting>();
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

  /** Resolves (never rejects) when a run started after this call ends; request paths do not await it. */
  schedule(repoPath: string, pushed: readonly PushedRef[] = []): Promise<void> {
    if (this.closed) return Promise.resolve();
    let entry = this.waiting.get(repoPath);
    if (!entry) {
      entry = waiting();
      this.waiting.set(repoPath, entry);
      // A later turn of the event loop, so requests made together join one run.
      if (!this.pumpQueued) {
        this.pumpQueued = true;
        setImmediate(() => {
          this.pumpQueued = false;
          this.pump();
        });
      }
    }
    // A ref pushed twice is warmed at its latest value only.
    for (const u of pushed) {
      entry.pushed.delete(u.ref);
      entry.pushed.set(u.ref, u.new);
    }
    return entry.promise;
  }

  /** For tests and benchmarks. */
  async idle(): Promise<void> {
    while (this.running.size || (this.waiting.size && !this.closed)) {
      await Promise.all([...this.running.values(), ...[...this.waiting.values()].map((w) => w.promise)]);
    }
  }

  /** A repository's next run waits for its current one. */
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
    // Without a fresh graph the walk is only slower, so it runs anyway.
    if (pushed.size) await this.warm(repoPath, pushed);
  }

  /** Default branch first. */
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

  /** Waiting runs are dropped; those in progress are awaited, then stopped after the grace period. */
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
