import { Redis } from 'ioredis';

/** Fails fast, for side work (throttles, idempotency): connects on first use so apps start without Redis; BullMQ keeps its own. */
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
