import { Logger } from '@nestjs/common';
import type pg from 'pg';
import { createPgPool } from './pg-pool.js';

/** The advisory-lock class of schedules ("SCHD"), so they never collide with other advisory locks. */
const SCHEDULE_LOCK_CLASS = 0x53434844;

export interface ClusterScheduleOptions {
  databaseUrl: string;
  /** Names the lock: every replica of the cluster uses the same name for the same job. */
  job: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/**
 * Runs a timed job on one replica per cluster (all replicas sharing one database): the replica holding a PostgreSQL
 * session advisory lock named after the job runs it every `everyMs`, the others try to take the lock as often. The
 * lock lives on a connection of its own, so a holder that dies (or loses that connection) frees it and another
 * replica takes over within one interval. Jobs must still be safe to overlap (a holder cut off from the database
 * may not know it yet): this saves the work of N replicas, the jobs' own locks keep them correct.
 */
export class ClusterSchedule {
  private readonly logger: Logger;
  private readonly pool: pg.Pool;
  private holder: pg.PoolClient | null = null;
  private timer?: NodeJS.Timeout;
  private running?: Promise<boolean>;
  private stopped = false;

  constructor(private readonly options: ClusterScheduleOptions) {
    this.logger = new Logger(`ClusterSchedule:${options.job}`);
    this.pool = createPgPool(options.databaseUrl, { max: 1, name: `ClusterSchedule:${options.job}` });
  }

  /** Whether this replica holds the job. */
  get leading(): boolean {
    return this.holder !== null;
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.everyMs);
    this.timer.unref();
  }

  /** Stops ticking, waits for a run under way, and frees the job for the other replicas. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    // Closing the socket frees the lock only once the server has noticed, so a successor could still be refused
    // right after stop(); unlocking first hands the job over at once (a failed unlock leaves it to the close).
    await this.holder
      ?.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [SCHEDULE_LOCK_CLASS, this.options.job])
      .catch(() => undefined);
    this.dropHolder();
    await this.pool.end();
  }

  /**
   * One turn: takes the job when no replica holds it, then runs it if this replica holds it (a turn under way is
   * joined). Resolves whether the job ran; a failure is logged and the next turn tries again.
   */
  tick(): Promise<boolean> {
    this.running ??= this.turn()
      .catch((err: Error) => {
        this.logger.warn(`${this.options.job} failed: ${err.message}`);
        return false;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async turn(): Promise<boolean> {
    if (this.stopped) return false;
    if (this.holder) {
      // The lock is only as alive as its connection: a dropped one has freed it for another replica.
      await this.holder.query('SELECT 1').catch(() => this.dropHolder());
    }
    if (!this.holder && !(await this.take())) return false;
    await this.options.run();
    return true;
  }

  private async take(): Promise<boolean> {
    const client = await this.pool.connect();
    client.on('error', this.lost);
    try {
      const { rows } = await client.query<{ taken: boolean }>(
        'SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS taken', [SCHEDULE_LOCK_CLASS, this.options.job],
      );
      if (rows[0]?.taken) {
        this.holder = client;
        return true;
      }
    } catch (err) {
      client.off('error', this.lost);
      client.release(err as Error);
      throw err;
    }
    client.off('error', this.lost);
    client.release();
    return false;
  }

  private readonly lost = (err: Error): void => {
    this.logger.warn(`lost the connection holding ${this.options.job}: ${err.message}`);
    this.dropHolder();
  };

  /** Closes the lock's connection: ending the session frees its advisory lock (no unlock query that could fail). */
  private dropHolder(): void {
    const client = this.holder;
    if (!client) return;
    this.holder = null;
    client.off('error', this.lost);
    client.release(true);
  }
}
