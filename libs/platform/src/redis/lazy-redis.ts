import { Redis } from 'ioredis';

/**
 * A Redis client for side work that must fail fast (throttles, idempotency): connects on first use, so apps start
 * without Redis; a command waits for one reconnection and 2 s at most. BullMQ keeps its own connections.
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
