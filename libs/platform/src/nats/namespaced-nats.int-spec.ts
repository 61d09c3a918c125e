/** Microservices answer only the {@link RpcClient} of their own namespace; durable consumers see only their namespace's events. */
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { DomainError, ErrorCode, type DomainEvent, type RpcPair } from '@cairn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateNats, type PrivateNats } from '../../../../test/support/integration.js';
import { waitFor } from '../../../../test/support/wait.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { connectNats, consumeEvents, ensureEventsStream, namespaceOf, publishEvent } from '../events/jetstream.js';
import { eventEnvelope } from '../events/outbox.js';
import { NamespacedServerNats } from '../rpc/namespaced-server-nats.js';
import { NatsNamespace } from './nats-namespace.js';

const WHO = 'probe.who';

// The probe subject joins the bus contract for the test code only, so the calls below are typed like real ones.
declare module '@cairn/contracts' {
  interface RpcContract {
    'probe.who': RpcPair<Record<string, never>, string>;
  }
}

async function startService(nats: PrivateNats, namespace: NatsNamespace, answer: string): Promise<INestMicroservice> {
  class ProbeController {
    who(): string {
      return answer;
    }
  }
  const proto = ProbeController.prototype;
  MessagePattern(WHO)(proto, 'who', Object.getOwnPropertyDescriptor(proto, 'who')!);
  Controller()(ProbeController);
  class ProbeModule {}
  Module({ controllers: [ProbeController] })(ProbeModule);
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(ProbeModule, {
    strategy: new NamespacedServerNats(namespace, { servers: [nats.url], queue: 'probe-service' }),
    logger: false,
  });
  await app.listen();
  return app;
}

let nats: PrivateNats;
const a = new NatsNamespace('a');
const b = new NatsNamespace('b');
const apps: INestMicroservice[] = [];
const clients: RpcClient[] = [];
const connections: NatsConnection[] = [];

beforeAll(async () => {
  nats = await startPrivateNats();
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const app of apps) await app.close().catch(() => undefined);
  for (const nc of connections) await nc.close().catch(() => undefined);
  await nats?.stop();
});

async function client(namespace: NatsNamespace): Promise<RpcClient> {
  const rpc = new RpcClient(nats.url, 3_000, 'probe-client', namespace);
  await rpc.connect();
  clients.push(rpc);
  return rpc;
}

async function connection(namespace: NatsNamespace): Promise<NatsConnection> {
  const nc = await connectNats(nats.url, 'probe-js', namespace);
  connections.push(nc);
  return nc;
}

describe('request-reply in a namespace', () => {
  it('is answered by the service of the same namespace only', async () => {
    const serviceA = await startService(nats, a, 'A');
    apps.push(serviceA, await startService(nats, b, 'B'));
    const [inA, inB, plain] = [await client(a), await client(b), await client(NatsNamespace.none)];

    await waitFor(() => inA.send(WHO, {}).catch(() => null), 'A to subscribe');
    await waitFor(() => inB.send(WHO, {}).catch(() => null), 'B to subscribe');
    for (let i = 0; i < 10; i++) {
      expect(await inA.send(WHO, {})).toBe('A');
      expect(await inB.send(WHO, {})).toBe('B');
    }
    // Nobody serves the plain subject; once A stops, nobody answers A's either (B does not stand in).
    await expect(plain.send(WHO, {})).rejects.toMatchObject({ code: ErrorCode.UNAVAILABLE });
    await serviceA.close();
    // A request sent while the server still holds A's closing subscription times out instead; B must never answer.
    const err = await waitFor(async () => {
      const e = await inA.send(WHO, {}).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DomainError);
      return (e as DomainError).code === ErrorCode.UNAVAILABLE ? e : null;
    }, 'A to be gone from the server');
    expect((err as DomainError).code).toBe(ErrorCode.UNAVAILABLE);
    expect(await inB.send(WHO, {})).toBe('B');
  });
});

describe('events in a namespace', () => {
  it("reach the namespace's own durable consumers only, beside the default stream", async () => {
    const [ncA, ncB, ncDefault] = [await connection(a), await connection(b), await connection(NatsNamespace.none)];
    expect(namespaceOf(ncA)).toBe(a);
    await ensureEventsStream(ncDefault);

    const got = { a: [] as DomainEvent[], b: [] as DomainEvent[] };
    const stops = [
      await consumeEvents(ncA, { durable: 'probe', subjects: ['repo.evt.>'], handle: async (e) => void got.a.push(e) }),
      await consumeEvents(ncB, { durable: 'probe', subjects: ['repo.evt.>'], handle: async (e) => void got.b.push(e) }),
    ];
    try {
      const eventsA = [1, 2, 3].map((n) => eventEnvelope('repo.evt.probe.made', { n, in: 'a' }));
      const eventB = eventEnvelope('repo.evt.probe.made', { n: 1, in: 'b' });
      for (const e of eventsA) await publishEvent(jetstream(ncA), e, a);
      await publishEvent(jetstream(ncB), eventB, b);

      await waitFor(() => got.a.length >= 3 && got.b.length >= 1, 'both consumers to receive their events');
      expect(got.a.map((e) => e.id)).toEqual(eventsA.map((e) => e.id));
      expect(got.b.map((e) => e.id)).toEqual([eventB.id]);
      // The events keep their plain subject; the stream stored them under the namespace's.
      expect(got.a[0].type).toBe('repo.evt.probe.made');
      const jsm = await jetstreamManager(ncDefault);
      expect((await jsm.streams.info(a.name('CAIRN_EVENTS'))).state.messages).toBe(3);
      expect((await jsm.streams.info(b.name('CAIRN_EVENTS'))).state.messages).toBe(1);
      expect((await jsm.streams.info('CAIRN_EVENTS')).state.messages).toBe(0);
    } finally {
      for (const stop of stops) await stop();
    }
  });
});
