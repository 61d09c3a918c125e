/**
 * Two installations on one NATS server (issue 8, section 6): suites A and B run side by side — every app its own
 * process, as `npm start` runs them — on one shared nats-server, each with its own `[nats] NAMESPACE`, next to a
 * default installation's `CAIRN_EVENTS` stream. Requests made in A are answered by A's services only and events
 * published in A are consumed by A's consumers only. Without namespaces both would fail: B's gateway would be
 * answered by A's identity-service, and B's hooks-service (same durable consumer on the same stream) would take
 * A's events away from A's.
 */
import { randomBytes } from 'node:crypto';
import { EVENTS_STREAM, IssueEvents } from '@cairn/contracts';
import { NatsNamespace, connectNats, ensureEventsStream } from '@cairn/platform';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateNats, type PrivateNats } from '../support/integration.js';
import { createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { REPO_SUITE_APPS } from '../support/git.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

interface Installation {
  namespace: NatsNamespace;
  suite: TestSuite;
  api: HttpClient;
  admin: Account;
}

const id = randomBytes(3).toString('hex');
let nats: PrivateNats;
let nc: NatsConnection;
let a: Installation;
let b: Installation;
let receiver: WebhookReceiver;
let receiverUrl: string;


async function install(namespace: string): Promise<Installation> {
  const suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    nats: { url: nats.url, namespace },
    env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms' },
  });
  return { namespace: new NatsNamespace(namespace), suite, api: httpClient(suite), admin: await suite.createAdmin() };
}

/** Stops one app of a suite (SIGTERM, as an orchestrator would) and waits until its process is gone. */
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiverUrl = `${receiver.url}`;

  nats = await startPrivateNats();
  // A default installation's stream (`*.evt.>`) is already there: the namespaced streams must not overlap it.
  nc = await connectNats(nats.url, 'namespaces-e2e');
  await ensureEventsStream(nc);
  a = await install(`a${id}`);
  b = await install(`b${id}`);
});

afterAll(async () => {
  await a?.suite.stop();
  await b?.suite.stop();
  await nc?.close();
  await nats?.stop();
  await receiver?.close();
});

describe('two installations on one NATS server', () => {
  it('keep their own events stream and durable consumers beside the default installation', async () => {
    const jsm = await jetstreamManager(nc);
    const streams = new Map<string, string[]>();
    for await (const s of jsm.streams.list()) streams.set(s.config.name, s.config.subjects ?? []);
    expect(streams.get(EVENTS_STREAM)).toEqual(['*.evt.>']);
    for (const { namespace } of [a, b]) {
      const name = namespace.name(EVENTS_STREAM);
      expect(streams.get(name)).toEqual([`${namespace.value}.cairn.*.evt.>`]);
      const consumers: string[] = [];
      for await (const c of jsm.consumers.list(name)) consumers.push(c.name);
      expect(consumers).toContain(namespace.name('hooks-service'));
    }
    const defaultConsumers: string[] = [];
    for await (const c of jsm.consumers.list(EVENTS_STREAM)) defaultConsumers.push(c.name);
    expect(defaultConsumers).toEqual([]);
  });

  it("deliver an event of A through A's hooks-service, never through B's", async () => {
    const alice = await createUser(a.suite, a.admin, uniqueName('alice'));
    const bob = await createUser(b.suite, b.admin, uniqueName('bob'));
    const repo = uniqueName('repo');
    for (const [inst, owner, path] of [[a, alice, '/a'], [b, bob, '/b']] as const) {
      expect((await inst.api.post('/user/repos', { basic: owner, body: { name: repo } })).status).toBe(201);
      const hook = await inst.api.post(`/repos/${owner.username}/${repo}/hooks`, {
        basic: owner,
        body: { type: 'gitea', active: true, events: ['issues'], config: { url: `${receiverUrl}${path}`, content_type: 'json' } },
      });
      expect(hook.status, hook.text).toBe(201);
    }

    // With A's hooks-service stopped, A's event waits in A's stream while B's hooks-service keeps consuming.
    await a.suite.stopApp('hooks-service');
    const issue = await a.api.post(`/repos/${alice.username}/${repo}/issues`, { basic: alice, body: { title: 'only in A' } });
    expect(issue.status, issue.text).toBe(201);
    const jsm = await jetstreamManager(nc);
    const stored = await waitFor(
      () =>
        jsm.streams
          .getMessage(a.namespace.name(EVENTS_STREAM), { last_by_subj: a.namespace.subject(IssueEvents.opened) })
          .catch(() => null),
      "the issue event in A's stream",
    );
    expect(stored.json<{ type: string }>().type).toBe(IssueEvents.opened);

    // A's hooks-service, started again, finds the event and delivers it: B's did not take it.
    await a.suite.startApp('hooks-service');
    const delivery = await waitFor(
      () => receiver.received.find((r) => r.path === '/a' && r.event === 'issues'),
      "A's issues delivery",
    );
    expect(delivery.json).toMatchObject({ action: 'opened', issue: { title: 'only in A' } });
    expect(delivery.json.repository.full_name).toBe(`${alice.username}/${repo}`);
    expect(receiver.received.filter((r) => r.path === '/b')).toEqual([]);
  });

  it("answer requests in their own installation only: with B's identity-service stopped, B's gateway gets 503", async () => {
    const carol = await createUser(a.suite, a.admin, uniqueName('carol'));
    expect((await a.api.get(`/users/${carol.username}`)).status).toBe(200);
    expect((await b.api.get(`/users/${carol.username}`)).status).toBe(404);

    await b.suite.stopApp('identity-service');
    const fromB = await b.api.get(`/users/${carol.username}`);
    expect(fromB.status, fromB.text).toBe(503);
    const fromA = await a.api.get(`/users/${carol.username}`);
    expect(fromA.status, fromA.text).toBe(200);
    expect(fromA.body.login).toBe(carol.username);
  });
});
