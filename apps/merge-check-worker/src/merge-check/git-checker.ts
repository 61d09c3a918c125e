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
export const SESSION_IDLE_MS = 20_000;
/** Idle sessions kept at most, over all repositories (each is two git processes). */
const MAX_IDLE_SESSIONS = 16;
/** Commits a merge-base walk may visit before `git merge-base` is asked instead. */
const MAX_WALK = 5_000;

/** Commits already read, by object id: content-addressed, so an entry is right in every repository. */
const known = new LruCache<CommitAncestry>(50_000);

interface Session {
  dir: string;
  tree: MergeTreeSession;
}

// Long-lived git processes per repository (a `merge-tree --stdin` session, a pooled `cat-file` for the merge base):
// no process per check. Where git cannot answer request by request, every check runs its own ({@link runCheck}).
@Injectable()
export class GitChecker implements OnApplicationShutdown {
  private readonly logger = new Logger('GitChecker');
  private idle: Session[] = [];
  private readonly busy = new Set<Session>();
  private persistent?: Promise<boolean>;
  private closing = false;
  private readonly sweeper: NodeJS.Timeout;
  private readonly objects = new CatFilePool({
    maxProcesses: 2 * MAX_IDLE_SESSIONS,
    idleTimeoutMs: SESSION_IDLE_MS,
    onRetry: (reason) => this.logger.warn(reason),
  });

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), SESSION_IDLE_MS / 2);
    this.sweeper.unref();
  }

  /** `fresh` skips idle sessions: a retry after an error an old session may have caused (rename, repack). */
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

  /** The merge base walked through the pooled cat-file; `git merge-base` decides when the walk cannot. */
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
