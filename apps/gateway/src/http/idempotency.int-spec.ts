// The Idempotency-Key interceptor with real Redis. The POST route is held open by the test, so "a retry while the
// first runs" is a state the test controls, not a race.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  Controller, Injectable, Module, Post, type CanActivate, type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { COMMON_SETTINGS, commonSettings, loadSettings } from '@cairn/platform';
import { setAuthState } from '../auth/request-context.js';
import { GATEWAY_SETTINGS, gatewaySettingsSpec } from '../config/gateway-settings.js';
import { ApiErrorFilter } from './api-error.filter.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';
import { ATTACHMENT_UPLOAD_ROUTE, bodyLimits, registerJsonBodyParser } from './json-body.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `cairn-it-idem-${randomUUID().slice(0, 8)}`;

/** A create route the test opens and closes: each call waits for `release()`, or fails when told to. */
class Gate {
  calls = 0;
  private waiting: Array<() => void> = [];
  private entered?: () => void;
  failNext = false;

  nextEntry(): Promise<void> {
    return new Promise((r) => (this.entered = r));
  }

  async enter(): Promise<void> {
    this.calls++;
    this.entered?.();
    await new Promise<void>((r) => this.waiting.push(r));
    if (this.failNext) {
      this.failNext = false;
      throw new DomainError(ErrorCode.UNAVAILABLE, 'the service went away');
    }
  }

  release(): void {
    for (const r of this.waiting.splice(0)) r();
  }
}
const gate = new Gate();

// Decorators applied as functions: test files are compiled without `experimentalDecorators`.
class ThingsController {
  async create() {
    await gate.enter();
    return { id: gate.calls, created: randomUUID() };
  }
}
Post()(ThingsController.prototype, 'create', Object.getOwnPropertyDescriptor(ThingsController.prototype, 'create')!);
Controller('things')(ThingsController);

/** The attachment upload's path: its body is streamed to the handler unread (see json-body.ts). */
let uploads = 0;
class UploadController {
  async upload() {
    uploads++;
    return { uploaded: uploads };
  }
}
Post()(UploadController.prototype, 'upload', Object.getOwnPropertyDescriptor(UploadController.prototype, 'upload')!);
Controller(ATTACHMENT_UPLOAD_ROUTE.replace(/^\//, ''))(UploadController);

class TestUserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const id = Number(req.headers['x-test-user'] ?? 0);
    setAuthState(req, { actor: id ? ({ id, login: `u${id}` } as never) : null, user: null, method: id ? 'token' : 'none' });
    return true;
  }
}

Injectable()(TestUserGuard);

const common = { ...loadSettings(commonSettings), redisUrl: REDIS_URL, queuePrefix: PREFIX };
const gatewaySettings = { ...loadSettings(gatewaySettingsSpec), idempotencyTtlMs: 60_000 };

async function startApp(redisUrl: string): Promise<{ app: NestFastifyApplication; url: string }> {
  class TestModule {}
  Module({
    controllers: [ThingsController, UploadController],
    providers: [
      { provide: COMMON_SETTINGS, useValue: { ...common, redisUrl } },
      { provide: GATEWAY_SETTINGS, useValue: gatewaySettings },
      IdempotencyStore,
      { provide: APP_GUARD, useClass: TestUserGuard },
      { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    ],
  })(TestModule);
  const app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), {
    logger: false,
    bodyParser: false,
  });
  registerJsonBodyParser(app.getHttpAdapter().getInstance(), bodyLimits(gatewaySettings, common.attachmentMaxSizeMb));
  app.useGlobalFilters(new ApiErrorFilter(common));
  await app.listen(0, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/things` };
}

let app: NestFastifyApplication;
let base: string;
const redis = new Redis(REDIS_URL);

beforeAll(async () => {
  ({ app, url: base } = await startApp(REDIS_URL));
});

afterAll(async () => {
  gate.release();
  await app?.close();
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

async function errorMessage(res: Response): Promise<string> {
  const body: unknown = await res.json();
  return typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : '';
}

function post(body: unknown, headers: Record<string, string> = {}, url = base) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-user': '7', ...headers },
    body: JSON.stringify(body),
  });
}

describe('Idempotency-Key', () => {
  it('answers 409 to a retry while the first request runs, 422 to another body, then replays the first answer', async () => {
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    const entered = gate.nextEntry();
    const first = post({ name: 'one' }, key);
    await entered;

    const concurrent = await post({ name: 'one' }, key);
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get('retry-after')).toBe('1');
    expect(await errorMessage(concurrent)).toMatch(/still being processed/);
    const otherBody = await post({ name: 'two' }, key);
    expect(otherBody.status).toBe(422);
    expect(await errorMessage(otherBody)).toMatch(/different request body/);

    gate.release();
    const done = await first;
    expect(done.status).toBe(201);
    const created = await done.json();
    const callsAfterFirst = gate.calls;

    const replay = await post({ name: 'one' }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(created);
    expect(gate.calls).toBe(callsAfterFirst);
    // Keys are per user: another user's request with the same key runs.
    const entry = gate.nextEntry();
    const other = post({ name: 'one' }, { ...key, 'x-test-user': '8' });
    await entry;
    gate.release();
    expect((await other).headers.get('idempotent-replayed')).toBeNull();
    expect(gate.calls).toBe(callsAfterFirst + 1);
  });

  it('keeps nothing of a failed request: a retry runs again', async () => {
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    gate.failNext = true;
    let entered = gate.nextEntry();
    const failing = post({ name: 'x' }, key);
    await entered;
    gate.release();
    expect((await failing).status).toBe(503);

    entered = gate.nextEntry();
    const retry = post({ name: 'x' }, key);
    await entered;
    gate.release();
    const res = await retry;
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key on a streamed upload (422): another file must not get the first answer', async () => {
    const url = new URL(base);
    url.pathname = '/api/v1/repos/o/r/releases/1/assets';
    const upload = (headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'x-test-user': '7', authorization: 'token t', ...headers }, body: 'file' });
    const refused = await upload({ 'idempotency-key': `k-${randomUUID()}` });
    expect(refused.status).toBe(422);
    expect(await errorMessage(refused)).toMatch(/not supported on a streamed upload/);
    expect(uploads).toBe(0);
    expect((await upload({})).status).toBe(201);
    expect(uploads).toBe(1);
  });

  it('stores the answer in Redis under the suite prefix with the configured TTL', async () => {
    const key = { 'idempotency-key': `k-${randomUUID()}` };
    const entered = gate.nextEntry();
    const req = post({ name: 'ttl' }, key);
    await entered;
    gate.release();
    expect((await req).status).toBe(201);
    const keys = await redis.keys(`${PREFIX}:idempotency:*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(keys.map((k) => redis.pttl(k)));
    for (const ttl of ttls) expect(ttl).toBeGreaterThan(0);
    expect(Math.max(...ttls)).toBeLessThanOrEqual(60_000);
  });

  it('answers 503 to a request with a key while Redis is unreachable; requests without a key still run', async () => {
    const closed = await startApp('redis://127.0.0.1:1');
    try {
      const res = await post({ name: 'r' }, { 'idempotency-key': `k-${randomUUID()}` }, closed.url);
      expect(res.status).toBe(503);
      expect(await errorMessage(res)).toMatch(/Idempotency-Key cannot be honoured now/);
      const entered = gate.nextEntry();
      const plain = post({ name: 'r' }, {}, closed.url);
      await entered;
      gate.release();
      expect((await plain).status).toBe(201);
    } finally {
      await closed.app.close();
    }
  });
});
