import { Redis } from 'ioredis';

/**
 * A Redis client for side work that must fail fast rather than wait (sign-in throttles, idempotency records):
 * connected on first use — an app or CLI that never needs it never connects, and starts without Redis — a command
 * waits for one reconnection and 2 s at most, and connection errors surface on the commands (one listener, added with
 * the client, keeps ioredis from printing them raw). BullMQ queues need other options and keep their own connections.
 */
export class LazyRedis {
  private redis: Redis | null = null;

  constructor(private readonly url: string) {}

  get client(): Redis {
    if (!this.redis) {
      this.redis = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        commandTimeout: 2_000,
        connectTimeout: 2_000,
      });
      this.redis.on('error', () => undefined);
    }
    return this.redis;
  }

  async close(): Promise<void> {
    const redis = this.redis;
    this.redis = null;
    if (redis) await redis.quit().catch(() => redis.disconnect());
  }
}
