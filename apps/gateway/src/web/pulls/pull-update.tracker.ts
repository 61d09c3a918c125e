import type { Redis } from 'ioredis';

export type PullUpdateRecord =
  | { state: 'running'; style: string; startedAt: string }
  | { state: 'done'; style: string; startedAt: string; finishedAt: string; ok: boolean; message: string };

/** A running marker outlives any update the gateway waits for (its RPC timeout is 5 min), then expires. */
const RUNNING_TTL_MS = 10 * 60_000;
const DONE_TTL_MS = 24 * 60 * 60_000;

export interface PullUpdateKey {
  repoId: number;
  index: number;
  userId: number;
}

// Detached from the HTTP request: closing the tab changes nothing, and the next visit shows the outcome once. One
// update per (user, pull request) at a time (`SET NX`).
export class PullUpdateTracker {
  constructor(
    private readonly redis: () => Redis,
    private readonly prefix: string,
  ) {}

  private key(k: PullUpdateKey): string {
    return `${this.prefix}:web:pull-update:${k.repoId}:${k.index}:${k.userId}`;
  }

  /** False when already running for this user and pull request; the work goes on whether `done` is awaited or not. */
  async start(
    k: PullUpdateKey,
    style: string,
    work: () => Promise<void>,
    describeFailure: (err: unknown) => string,
  ): Promise<{ started: boolean; done: Promise<PullUpdateRecord | null> }> {
    const startedAt = new Date().toISOString();
    const running: PullUpdateRecord = { state: 'running', style, startedAt };
    const claimed = await this.redis().set(this.key(k), JSON.stringify(running), 'PX', RUNNING_TTL_MS, 'NX');
    if (claimed !== 'OK') return { started: false, done: Promise.resolve(null) };
    const done = work().then(
      () => this.finish(k, { state: 'done', style, startedAt, finishedAt: new Date().toISOString(), ok: true, message: '' }),
      (err: unknown) =>
        this.finish(k, { state: 'done', style, startedAt, finishedAt: new Date().toISOString(), ok: false, message: describeFailure(err) }),
    );
    return { started: true, done };
  }

  /** The current record; a finished one is returned once and then removed (it has been shown). */
  async take(k: PullUpdateKey): Promise<PullUpdateRecord | null> {
    const raw = await this.redis().get(this.key(k));
    if (raw === null) return null;
    const record = JSON.parse(raw) as PullUpdateRecord;
    // Delete only if unchanged, so two tabs do not both show (or lose) the outcome.
    if (record.state === 'done' && (await this.redis().eval(DEL_IF_EQUAL, 1, this.key(k), raw)) !== 1) return null;
    return record;
  }

  /** Looks without consuming (the merge-box fragment polls with this). */
  async peek(k: PullUpdateKey): Promise<PullUpdateRecord | null> {
    const raw = await this.redis().get(this.key(k));
    return raw === null ? null : (JSON.parse(raw) as PullUpdateRecord);
  }

  private async finish(k: PullUpdateKey, record: PullUpdateRecord): Promise<PullUpdateRecord | null> {
    try {
      await this.redis().set(this.key(k), JSON.stringify(record), 'PX', DONE_TTL_MS);
      return record;
    } catch {
      // Redis gone: the update itself happened (or not) in git; only the notice is lost.
      return null;
    }
  }
}

const DEL_IF_EQUAL = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
