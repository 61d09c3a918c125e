import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { COMMON_SETTINGS, LazyRedis, type CommonSettings } from '@cairn/platform';
import { createHash } from 'node:crypto';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';

export type IdempotencyRecord =
  | { state: 'running'; fingerprint: string }
  | { state: 'done'; fingerprint: string; status: number; body: unknown };

/** A gateway that dies mid-request must not lock the key for the whole TTL; longer than any RPC timeout. */
const RUNNING_TTL_MS = 5 * 60_000;

/** One key per (user, method, URL, client key), claimed atomically with `SET NX`. */
@Injectable()
export class IdempotencyStore implements OnModuleDestroy {
  /** Connected on first use: most requests carry no key, and the gateway must start without Redis. */
  private readonly redis: LazyRedis;

  constructor(
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {
    this.redis = new LazyRedis(common.redisUrl);
  }

  redisKey(userId: number, method: string, url: string, key: string): string {
    const id = createHash('sha256').update(JSON.stringify([userId, method, url, key])).digest('hex');
    return `${this.common.queuePrefix}:idempotency:${id}`;
  }

  async claim(redisKey: string, fingerprint: string): Promise<boolean> {
    const record: IdempotencyRecord = { state: 'running', fingerprint };
    const ok = await this.redis.client.set(redisKey, JSON.stringify(record), 'PX', RUNNING_TTL_MS, 'NX');
    return ok === 'OK';
  }

  async read(redisKey: string): Promise<IdempotencyRecord | null> {
    const raw = await this.redis.client.get(redisKey);
    return raw === null ? null : (JSON.parse(raw) as IdempotencyRecord);
  }

  async complete(redisKey: string, fingerprint: string, status: number, body: unknown): Promise<void> {
    const record: IdempotencyRecord = { state: 'done', fingerprint, status, body: body ?? null };
    await this.redis.client.set(redisKey, JSON.stringify(record), 'PX', this.settings.idempotencyTtlMs);
  }

  async release(redisKey: string): Promise<void> {
    await this.redis.client.del(redisKey);
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.close();
  }
}
