/** Finding 9: the generated per-service NATS users: apps connect and answer, anonymous or wrong credentials are refused. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { EVENTS_STREAM, EVENT_CONSUMERS, EVENT_SUBJECTS, IdentitySubjects, healthSubject, type DomainEvent } from '@cairn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, REPO_ROOT } from '../../../../scripts/suite.mjs';
import { NATS_SERVICES, accountsConfig } from '../../../../scripts/nats-accounts.mjs';
import {
  createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase,
} from '../../../../test/support/integration.js';
import { loadSettings, natsAuthSettings } from '../config/settings.js';
import { RpcClient } from '../rpc/rpc-client.js';
import { connectNats, consumeEvents, ensureEventsStream, publishEvent } from '../events/jetstream.js';
import { eventEnvelope } from '../events/outbox.js';
import { natsConnectionOptions } from './nats-connection-options.js';
import { NatsNamespace } from './nats-namespace.js';
import { waitFor } from '../../../../test/support/wait.js';

const passwords: Record<string, string> = Object.fromEntries(
  NATS_SERVICES.map((s) => [s.user, randomBytes(12).toString('hex')]),
);
let nats: PrivateNats;
const opened: NatsConnection[] = [];

function optionsFor(user: string, natsUrl = nats.url) {
  const env = { CAIRN__NATS__USER: user, CAIRN__NATS__PASSWORD: passwords[user] };
  return natsConnectionOptions({ ...loadSettings(natsAuthSettings, env), natsUrl }, user);
}

/**
 * Runs every declared consumer on its service's account, fed by an event from the account that publishes it, and
 * sees the event acknowledged (an ack answers the delivery, so `allow_responses` would let it through on its own).
 */
async function everyConsumerGetsItsEvents(natsUrl: string, ns: NatsNamespace): Promise<void> {
  const connections = new Map<string, NatsConnection>();
  const as = async (user: string): Promise<NatsConnection> => {
    const nc = connections.get(user) ?? (await connectNats(optionsFor(user, natsUrl), `test-${user}-js`, ns));
    connections.set(user, nc);
    return nc;
  };
  try {
    for (const [durable, { service, subject }] of Object.entries(EVENT_CONSUMERS)) {
      const consumer = await as(service);
      const publisher = await as(subject.split('.')[0]);
      await ensureEventsStream(publisher);
      const type = EVENT_SUBJECTS.find((s) => s === subject || (subject.endsWith('>') && s.startsWith(subject.slice(0, -1))))!;
      const event = eventEnvelope(type, { probe: durable });
      let stop: (() => Promise<void>) | undefined;
      const received = new Promise<DomainEvent>((resolve, reject) => {
        consumeEvents(consumer, {
          durable,
          subjects: [subject],
          handle: async (e) => {
            if (e.id === event.id) resolve(e);
          },
        }).then((s) => (stop = s), reject);
      });
      await publishEvent(jetstream(publisher), event, ns);
      expect((await received).type, durable).toBe(type);
      const jsm = await jetstreamManager(consumer);
      await waitFor(
        async () => (await jsm.consumers.info(ns.name(EVENTS_STREAM), ns.name(durable))).num_ack_pending === 0,
        `${durable} to acknowledge its events`,
      );
      await stop?.();
    }
  } finally {
    for (const nc of connections.values()) await nc.close().catch(() => undefined);
  }
}

async function open(user: string): Promise<NatsConnection> {
  const nc = await connect({ ...optionsFor(user), name: `test-${user}` });
  opened.push(nc);
  return nc;
}

let db: ScratchDatabase;

beforeAll(async () => {
  nats = await startPrivateNats({ config: accountsConfig({ passwords }) });
  db = await createScratchDatabase('natsauth', { services: ['runners'] });
});
afterAll(async () => {
  for (const nc of opened) await nc.close().catch(() => undefined);
  await nats?.stop();
  await db?.drop();
});

describe('connecting with credentials', () => {
  it('a built app starts with [nats] USER/PASSWORD and the gateway account reaches it', async () => {
    const runners = APPS.find((a) => a.name === 'runners-service')!;
    const child: ChildProcess = spawn(process.execPath, [runners.main], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        RUN_MODE: 'test',
        NATS_URL: nats.url,
        DATABASE_URL: db.url,
        CAIRN__NATS__USER: 'runners',
        CAIRN__NATS__PASSWORD: passwords.runners,
        CAIRN__OPS__PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const onData = (d: Buffer) => {
          output += d;
          if (output.includes('runners-service ready')) resolve();
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        void exited.then((code) => reject(new Error(`runners-service exited (${code}):\n${output}`)));
      });
      const rpc = new RpcClient(optionsFor('gateway'), 5_000, 'test-gateway');
      await rpc.connect();
      try {
        const health = await rpc.send(healthSubject('runners'), {});
        expect(health.ok).toBe(true);
      } finally {
        await rpc.close();
      }
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it("every consumer in EVENT_CONSUMERS runs on its service's account and gets its publisher's events", async () => {
    await everyConsumerGetsItsEvents(nats.url, NatsNamespace.none);
  });

  it('so do the users generated for an installation\'s namespace, on namespaced subjects and names', async () => {
    const ns = new NatsNamespace('team-a');
    const namespaced = await startPrivateNats({
      config: accountsConfig({ passwords, namespace: ns }),
    });
    try {
      await everyConsumerGetsItsEvents(namespaced.url, ns);
    } finally {
      await namespaced.stop();
    }
  });
});

describe('without credentials', () => {
  it('a connection without credentials is refused', async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/Authorization/i);
  });

  it('a wrong password is refused', async () => {
    await expect(
      connect({ servers: nats.url, user: 'gateway', pass: passwords.identity, reconnect: false }),
    ).rejects.toThrow(/Authorization/i);
  });
});

describe('least privilege', () => {
  it('the gateway account cannot publish events (core NATS or JetStream)', async () => {
    const gateway = await open('gateway');
    await expect(gateway.request('identity.evt.user.created', '{}', { timeout: 5_000 })).rejects.toThrow(
      /Permissions Violation/i,
    );
    await expect(jetstream(gateway).publish('repo.evt.push', '{}')).rejects.toThrow(/Permissions Violation/i);
  });

  it("the hooks account cannot call identity's two-factor subjects", async () => {
    const identity = await open('identity');
    const seen: string[] = [];
    for (const subject of [IdentitySubjects.twoFactorEnroll, IdentitySubjects.userGet]) {
      identity.subscribe(subject, {
        callback: (_err, msg) => {
          seen.push(msg.subject);
          msg.respond('ok');
        },
      });
    }
    await identity.flush();
    const hooks = await open('hooks');
    await expect(hooks.request(IdentitySubjects.twoFactorEnroll, '{}', { timeout: 5_000 })).rejects.toThrow(
      /Permissions Violation for Publish/i,
    );
    // A call the gateway is allowed to make, sent after the refusal: identity-service receives it, and on its one
    // connection the refused request would have arrived first — it never did.
    const gateway = await open('gateway');
    expect((await gateway.request(IdentitySubjects.userGet, '{}', { timeout: 5_000 })).string()).toBe('ok');
    expect(seen).toEqual([IdentitySubjects.userGet]);
  });

  it("a service cannot take over another service's durable consumer", async () => {
    const packages = await open('packages');
    await expect(
      consumeEvents(packages, { durable: 'hooks-service', subjects: ['repo.evt.>'], handle: async () => undefined }),
    ).rejects.toThrow(/Permissions Violation/i);
  });

  it("a service cannot read another service's replies", async () => {
    const hooks = await open('hooks');
    // Replies go to `_INBOX.<service>.…`: hooks may subscribe only under its own prefix.
    const denied = new Promise<string>((resolve) => {
      void (async () => {
        for await (const s of hooks.status()) {
          if (s.type === 'error') resolve(String((s as { error?: unknown }).error));
        }
      })();
    });
    hooks.subscribe('_INBOX.gateway.>');
    await hooks.flush();
    expect(await denied).toMatch(/Permissions Violation for Subscription/i);
  });
});
