/** Issue 9, items 2 and 11: large messages travel whole, too-large ones fail at once, late work is refused without writing. */
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions } from '@nestjs/microservices';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { DomainError, ErrorCode, type RpcPair } from '@cairn/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../test/support/integration.js';
import { installRpcPipeline } from '../bootstrap/bootstrap-service.js';
import { NamespacedServerNats } from './namespaced-server-nats.js';
import { NatsNamespace } from '../nats/nats-namespace.js';
import { RpcClient } from './rpc-client.js';
import { BusTransfers, fetchTransfer } from './bus-transfer.js';
import { DEADLINE_HEADER, currentRpcDeadline } from './rpc-deadline.js';

const MiB = 1024 * 1024;
const MAX_MESSAGE = 8 * MiB;

const S = {
  big: 'probe.big',
  echoLength: 'probe.echo-length',
  write: 'probe.write',
} as const;

// The probe subjects join the bus contract for the test code only, so the calls below are typed like real ones.
declare module '@cairn/contracts' {
  interface RpcContract {
    'probe.big': RpcPair<{ n: number }, { text: string }>;
    'probe.echo-length': RpcPair<{ text: string }, { length: number; checksum: number }>;
    'probe.write': RpcPair<{ tag: string }, { deadline: number | null }>;
  }
}

let nats: PrivateNats;
let db: ScratchDatabase;
let app: INestMicroservice;
let server: NamespacedServerNats;
let rpc: RpcClient;
let raw: NatsConnection;
const ns = new NatsNamespace(`bus${randomUUID().slice(0, 6)}`);
const handled: string[] = [];

function checksum(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** Decorators applied by hand: test files are not built with them. */
async function startService(): Promise<INestMicroservice> {
  class ProbeController {
    big(req: { n: number }): { text: string } {
      handled.push(S.big);
      return { text: 'x'.repeat(req.n) };
    }
    echoLength(req: { text: string }): { length: number; checksum: number } {
      handled.push(S.echoLength);
      return { length: req.text.length, checksum: checksum(req.text) };
    }
    async write(req: { tag: string }): Promise<{ deadline: number | null }> {
      handled.push(S.write);
      await db.sql('INSERT INTO writes (tag) VALUES ($1)', [req.tag]);
      return { deadline: currentRpcDeadline() ?? null };
    }
  }
  const proto = ProbeController.prototype;
  for (const [key, subject] of [['big', S.big], ['echoLength', S.echoLength], ['write', S.write]] as const) {
    MessagePattern(subject)(proto, key, Object.getOwnPropertyDescriptor(proto, key)!);
  }
  Controller()(ProbeController);
  class ProbeModule {}
  Module({ controllers: [ProbeController] })(ProbeModule);
  server = new NamespacedServerNats(ns, { servers: [nats.url], queue: 'probe-service' }, { maxMessageBytes: MAX_MESSAGE });
  const service = await NestFactory.createMicroservice<MicroserviceOptions>(ProbeModule, {
    strategy: server,
    logger: false,
  });
  installRpcPipeline(service);
  await service.listen();
  return service;
}

beforeAll(async () => {
  nats = await startPrivateNats();
  db = await createScratchDatabase('bus', { services: [] });
  await db.sql('CREATE TABLE writes (tag text NOT NULL)');
  app = await startService();
  rpc = new RpcClient(nats.url, 30_000, 'bus-it', ns, { maxMessageBytes: MAX_MESSAGE });
  await rpc.connect();
  raw = await connect({ servers: nats.url });
  // The subscription is live once a call is answered.
  for (let i = 0; ; i++) {
    const ok = await rpc.send(S.big, { n: 1 }, { timeoutMs: 1_000 }).then(() => true, () => false);
    if (ok) break;
    if (i > 100) throw new Error('probe service never answered');
  }
});

afterAll(async () => {
  await rpc?.close().catch(() => undefined);
  await raw?.close().catch(() => undefined);
  await app?.close().catch(() => undefined);
  await nats?.stop();
  await db?.drop();
});

const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof DomainError ? e.code : String(e)));

describe('messages larger than max_payload', () => {
  it('reports the server max_payload the threshold derives from', () => {
    expect(raw.info?.max_payload).toBe(MiB);
  });

  it('carries a 3 MiB reply whole', async () => {
    const reply = await rpc.send(S.big, { n: 3 * MiB });
    expect(reply.text.length).toBe(3 * MiB);
    expect(reply.text).toBe('x'.repeat(3 * MiB));
  });

  it('carries a 2.5 MiB request whole (non-ASCII text included)', async () => {
    const text = `${'é'.repeat(MiB)}${'a'.repeat(MiB / 2)}`;
    const reply = await rpc.send(S.echoLength, { text });
    expect(reply).toEqual({ length: text.length, checksum: checksum(text) });
  });

  it('carries many large calls at once and holds nothing afterwards', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => rpc.send(S.big, { n: MiB + i })),
    );
    expect(replies.map((r) => r.text.length)).toEqual([0, 1, 2, 3, 4, 5].map((i) => MiB + i));
    // Each parked reply was dropped when its last chunk was fetched.
    expect(server.parkedBytes).toBe(0);
    expect(rpc.parkedBytes).toBe(0);
  });

  it('answers a reply over RPC_MAX_MESSAGE_SIZE at once with an internal error (logged with its id), not a timeout', async () => {
    const err = await rpc.send(S.big, { n: MAX_MESSAGE + 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe(ErrorCode.INTERNAL);
    expect((err as DomainError).errorId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a request over RPC_MAX_MESSAGE_SIZE before sending it', async () => {
    const before = handled.length;
    const err = await rpc.send(S.echoLength, { text: 'y'.repeat(MAX_MESSAGE + 1) }).catch((e: unknown) => e);
    expect((err as DomainError).code).toBe(ErrorCode.CONTENT_TOO_LARGE);
    expect((err as DomainError).message).toMatch(/the request to probe\.echo-length of \d+ bytes exceeds/);
    expect(handled.length).toBe(before);
  });

  it('answers a stand-in whose sender is gone with UNAVAILABLE at once', async () => {
    const h = natsHeaders();
    h.set('cairn-transfer', JSON.stringify({ subject: ns.subject('cairn.transfer.nobody'), id: 'gone', size: 10 }));
    h.set(DEADLINE_HEADER, String(Date.now() + 20_000));
    const msg = await raw.request(ns.subject(S.echoLength), JSON.stringify({ pattern: S.echoLength, id: 'r1', data: null }), {
      headers: h,
      timeout: 20_000,
    });
    expect(msg.json()).toMatchObject({ id: 'r1', err: { code: ErrorCode.UNAVAILABLE }, isDisposed: true });
  });
});

describe('parked messages', () => {
  it('are one-time, bounded in total, and refused to receivers over their limit', async () => {
    const transfers = new BusTransfers(raw, ns, { maxMessageBytes: 2 * MiB, maxTotalBytes: 3 * MiB });
    try {
      const bytes = new Uint8Array(2 * MiB).map((_, i) => i % 251);
      const ticket = transfers.park(bytes, 'a probe', Date.now() + 20_000);
      expect(transfers.parkedBytes).toBe(2 * MiB);
      // A second large message does not fit beside the first: refused at once, nothing parked.
      expect(() => transfers.park(new Uint8Array(2 * MiB), 'another probe')).toThrow(
        expect.objectContaining({ code: ErrorCode.UNAVAILABLE }),
      );
      // A receiver with a smaller limit refuses before fetching anything.
      await expect(fetchTransfer(raw, ticket, { deadline: Date.now() + 20_000, maxBytes: MiB })).rejects.toMatchObject({
        code: ErrorCode.CONTENT_TOO_LARGE,
      });
      const got = await fetchTransfer(raw, ticket, { deadline: Date.now() + 20_000, maxBytes: 2 * MiB });
      expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true);
      expect(transfers.parkedBytes).toBe(0);
      // Fetched once: gone.
      await expect(fetchTransfer(raw, ticket, { deadline: Date.now() + 20_000, maxBytes: 2 * MiB })).rejects.toMatchObject({
        code: ErrorCode.UNAVAILABLE,
      });
      expect(() => transfers.park(new Uint8Array(2 * MiB + 1), 'a big probe')).toThrow(
        expect.objectContaining({ code: ErrorCode.CONTENT_TOO_LARGE }),
      );
    } finally {
      transfers.stop();
    }
  });
});

describe('deadlines', () => {
  it('sends the caller deadline, which the handler runs under', async () => {
    const before = Date.now();
    const reply = await rpc.send(S.write, { tag: 'in-time' }, { timeoutMs: 5_000 });
    expect(reply.deadline).toBeGreaterThanOrEqual(before + 5_000);
    expect(reply.deadline).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(await db.sql('SELECT tag FROM writes WHERE tag = $1', ['in-time'])).toHaveLength(1);
  });

  it('refuses work whose deadline passed before the handler ran: no write, a TIMEOUT answer', async () => {
    // A message delayed past its deadline (e.g. buffered while the caller reconnected): the header says it is late.
    const before = handled.length;
    const h = natsHeaders();
    h.set(DEADLINE_HEADER, String(Date.now() - 1_000));
    const msg = await raw.request(
      ns.subject(S.write),
      JSON.stringify({ pattern: S.write, id: 'late', data: { tag: 'late' } }),
      { headers: h, timeout: 20_000 },
    );
    expect(msg.json()).toMatchObject({ id: 'late', err: { code: ErrorCode.TIMEOUT }, isDisposed: true });
    expect((msg.json() as { err: { message: string } }).err.message).toMatch(/deadline passed .* nothing was done/);
    expect(handled.length).toBe(before);
    expect(await db.sql('SELECT tag FROM writes WHERE tag = $1', ['late'])).toEqual([]);
  });

  it('does not send a call whose inherited deadline has passed', async () => {
    const { withRpcDeadline } = await import('./rpc-deadline.js');
    const before = handled.length;
    const code = await withRpcDeadline(Date.now() - 1, () => codeOf(rpc.send(S.write, { tag: 'inherited' })));
    expect(code).toBe(ErrorCode.TIMEOUT);
    expect(handled.length).toBe(before);
  });
});
