import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { isObjectId } from '@cairn/contracts';
import {
  CatFilePool, findMergeBase, mergeBase, MergeTreeSession, parseCommitObject, probeMergeTreeSessions, type CommitAncestry,
  type ReadCommits,
} from '@cairn/git';
import { LruCache } from '@cairn/platform';
import { runCheck, toCheckResult, type CheckResult } from './git-check.js';


/** A session is ended after this many merges: git keeps every object it parsed, and the scratch directory grows. */
export const SESSION_MAX_MERGES = 1_000;
/** A session unused for this long is ended (its processes and scratch directory go). */
export const SESSION_IDLE_MS = 20_000;
/** Idle sessions kept at most, over all repositories (each is two git processes). */
const MAX_IDLE_SESSIONS = 16;
/** Commits a merge-base walk may visit before `git merge-base` is asked instead. */
const MAX_WALK = 5_000;

/**
 * Commits already read, by object id. An object id names its content, so an entry is right in every repository
 * that has the commit; bounded (a base push makes many checks walk the same base commits).
 */
const known = new LruCache<CommitAncestry>(50_000);

/** A long-lived merge-tree process of one repository, used by one check at a time. */
interface Session {
  dir: string;
  tree: MergeTreeSession;
}

/**
 * Runs mergeability checks with long-lived git processes per repository: a `git merge-tree --stdin` session per
 * check running in it (objects into its own scratch directory) and the pooled `git cat-file` from which the merge
 * base is walked — no process is started per check. Idle sessions are reused, and ended after
 * {@link SESSION_IDLE_MS} or {@link SESSION_MAX_MERGES} merges, or when their process ended (git 2.39 ends
 * `merge-tree --stdin` on a merge it cannot do).
 *
 * Where git cannot answer request by request (no coreutils `stdbuf`, a git without `merge-tree --stdin`; found
 * out once, at the first check), every check runs its own processes as before ({@link runCheck}).
 */
@Injectable()
export class GitChecker implements OnApplicationShutdown {
  private readonly logger = new Logger('GitChecker');
  /** Idle sessions, least recently used first. */
  private idle: Session[] = [];
  private readonly busy = new Set<Session>();
  private persistent?: Promise<boolean>;
  private closing = false;
  private readonly sweeper: NodeJS.Timeout;
  /** The cat-file processes merge bases are walked through (one per repository, shared by its checks). */
  private readonly objects = new CatFilePool({
    maxProcesses: 2 * MAX_IDLE_SESSIONS,
    idleTimeoutMs: SESSION_IDLE_MS,
    onRetry: (reason) => this.logger.warn(reason),
  });

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), SESSION_IDLE_MS / 2);
    this.sweeper.unref();
  }

  /**
   * Checks whether `head` merges cleanly into `base` in the repository at `dir` (a validated storage path), and finds
   * their merge base. `fresh` skips idle sessions (a retry after an error that an old session may have caused, such
   * as a repository renamed or repacked under it). A check running longer than `timeoutMs` is an `error` result.
   */
  async check(dir: string, base: string, head: string, timeoutMs: number, options: { fresh?: boolean } = {}): Promise<CheckResult> {
    if (!isObjectId(base) || !isObjectId(head)) throw new Error('base and head must be full object ids');
    if (!(await this.persistentMode())) return runCheck(dir, base, head, timeoutMs);
    const session = await this.acquire(dir, options.fresh === true);
    try {
      const [outcome, mergeBase] = await Promise.all([
        session.tree.merge(base, head, timeoutMs),
        this.mergeBase(session, base, head, timeoutMs),
      ]);
      return toCheckResult(outcome, mergeBase);
    } finally {
      this.release(session);
    }
  }

  /** Sessions alive now (tests and metrics). */
  get sessions(): number {
    return this.idle.length + this.busy.size;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    await Promise.all(this.idle.splice(0).map((s) => this.end(s)));
    this.objects.close();
  }

  /** Whether long-lived merge-tree processes answer here, found once by merging a commit with itself. */
  private persistentMode(): Promise<boolean> {
    this.persistent ??= probeMergeTreeSessions().then(
      () => true,
      (err: unknown) => {
        this.logger.warn(`long-lived git merge-tree unavailable (${(err as Error).message}); one git process per check`);
        return false;
      },
    );
    return this.persistent;
  }

  /**
   * The merge base walked through the repository's pooled cat-file; `git merge-base` decides when the walk cannot
   * (several best candidates, a very long history). Undefined when there is none or it could not be found in time.
   */
  private async mergeBase(session: Session, base: string, head: string, timeoutMs: number): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeoutMs);
    });
    try {
      let late = false;
      const walk = findMergeBase(this.commitReader(session.dir, () => late), base, head, MAX_WALK);
      const answer = await Promise.race([walk, expired]).catch(() => null);
      if (answer === 'expired') {
        // The walk stops at its next read.
        late = true;
        return undefined;
      }
      if (answer?.kind === 'found') return answer.oid;
      if (answer?.kind === 'none') return undefined;
      return (await mergeBase(session.dir, base, head, { timeoutMs })) ?? undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads commits through the pooled cat-file of `dir` (what is not known yet); stops reading once `late`. */
  private commitReader(dir: string, late: () => boolean): ReadCommits {
    return async (oids) => {
      const found = new Map<string, CommitAncestry>();
      const unknown: string[] = [];
      for (const oid of oids) {
        const hit = known.get(oid);
        if (hit) found.set(oid, hit);
        else if (isObjectId(oid)) unknown.push(oid);
      }
      if (unknown.length) {
        if (late()) throw new Error('the walk ran out of time');
        const objects = await this.objects.run(dir, unknown.map((object) => ({ op: 'contents' as const, object })));
        objects.forEach((object, i) => {
          if (object?.type !== 'commit' || !object.data) return;
          const { parents, committer } = parseCommitObject(object.data);
          known.set(unknown[i], { parents, committer });
          found.set(unknown[i], { parents, committer });
        });
      }
      return oids.map((oid) => found.get(oid) ?? null);
    };
  }

  private async acquire(dir: string, fresh: boolean): Promise<Session> {
    const i = fresh ? -1 : this.idle.findLastIndex((s) => s.dir === dir);
    let session: Session;
    if (i >= 0) {
      session = this.idle.splice(i, 1)[0];
    } else {
      session = { dir, tree: await MergeTreeSession.open(dir, true) };
    }
    this.busy.add(session);
    return session;
  }

  private release(session: Session): void {
    this.busy.delete(session);
    const reusable = !this.closing && session.tree.alive && session.tree.merges < SESSION_MAX_MERGES;
    if (!reusable) {
      void this.end(session);
      return;
    }
    this.idle.push(session);
    while (this.idle.length > MAX_IDLE_SESSIONS) void this.end(this.idle.shift()!);
  }

  private sweep(): void {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    const [old, keep] = [this.idle.filter((s) => s.tree.lastUsedAt < cutoff), this.idle.filter((s) => s.tree.lastUsedAt >= cutoff)];
    this.idle = keep;
    for (const s of old) void this.end(s);
  }

  private async end(session: Session): Promise<void> {
    await session.tree.close().catch((err: unknown) =>
      this.logger.warn(`ending git processes of ${session.dir}: ${(err as Error).message}`),
    );
  }
}
