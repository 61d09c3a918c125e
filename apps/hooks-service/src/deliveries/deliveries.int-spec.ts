// Delivery end to end: private JetStream, real Postgres, Redis/BullMQ, and an HTTP receiver verifying signatures.
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode, HooksSubjects, IssueCommentEvents, IssueEvents, PackageEvents, RepoEvents, ZERO_SHA, type ActorDto,
  type HookDeliveryDto, type HookDto, type HookScopeDto, type RepoRefDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { Receiver, pushEventData, startInfra, startInProcess, waitFor, type Infra } from '../../test/support.js';

const SECRET = 's3cret';
const admin: ActorDto = { id: 1, login: 'root', isAdmin: true, scopes: ['all'], hasTwoFactor: false };
const ADMIN: HookScopeDto = { level: 'admin' };
const repoRef = (id: number): RepoRefDto => ({ id, ownerId: 3, ownerName: 'acme', name: `repo${id}`, defaultBranch: 'main' });
const repoScope = (id: number): HookScopeDto => ({ level: 'repo', repo: repoRef(id), access: 'admin' });

let infra: Infra;
let app: INestMicroservice;
let rpc: RpcClient;
let receiver: Receiver;

beforeAll(async () => {
  infra = await startInfra('deliveries', { CAIRN__WEBHOOK__DELIVER_TIMEOUT: '2s' });
  app = await startInProcess(infra);
  rpc = new RpcClient(infra.natsUrl, 10_000, 'hooks-it');
  await rpc.connect();
  receiver = await new Receiver(SECRET).start();
});

afterAll(async () => {
  await rpc?.close();
  await app?.close();
  await receiver?.stop();
  await infra?.close();
});

async function hook(scope: HookScopeDto, path: string, extra: Record<string, unknown> = {}, host = receiver.url): Promise<HookDto> {
  const { config, ...rest } = extra as { config?: Record<string, unknown> };
  return rpc.send(HooksSubjects.webhookCreate, {
    actor: admin,
    scope,
    body: { type: 'gitea', active: true, config: { url: `${host}${path}`, content_type: 'json', secret: SECRET, ...config }, ...rest },
  });
}

const deliveries = (scope: HookScopeDto, hookId: number) =>
  rpc.send(HooksSubjects.deliveryList, { actor: admin, scope, hookId, query: {} });
const delivery = (scope: HookScopeDto, hookId: number, deliveryId: number) =>
  rpc.send(HooksSubjects.deliveryGet, { actor: admin, scope, hookId, deliveryId });

async function settled(scope: HookScopeDto, hookId: number, count = 1): Promise<HookDeliveryDto[]> {
  return waitFor(async () => {
    const page = await deliveries(scope, hookId);
    const done = page.items.filter((d) => d.state === 'delivered' || d.state === 'failed');
    return done.length >= count && page.items.length === done.length ? page.items : null;
  }, `hook ${hookId} deliveries to settle`);
}

describe('delivery', () => {
  it('a system hook receives a push of any repository, signed and with Gitea/GitHub headers', async () => {
    const system = await hook(ADMIN, '/system', {
      config: { is_system_webhook: true },
      authorization_header: 'Bearer hook-token',
    });
    const event = await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 101, ownerId: 3, commits: 2 }));
    const [req] = await waitFor(() => (receiver.at('/system').length ? receiver.at('/system') : null), 'system delivery');
    expect(req.octokitValid).toBe(true);
    expect(req.hmacValid).toBe(true);
    expect(req.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitea-event': 'push',
      'x-github-event': 'push',
      'x-gogs-event': 'push',
      'x-gitea-event-type': 'push',
      'x-github-hook-id': String(system.id),
      'x-github-hook-installation-target-type': 'system',
      authorization: 'Bearer hook-token',
    });
    expect(req.headers['x-gitea-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.headers['x-github-delivery']).toBe(req.headers['x-gitea-delivery']);
    expect(req.headers['user-agent']).toMatch(/Cairn-Hookshot/);
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({ ref: 'refs/heads/main', total_commits: 2, repository: { id: 101, full_name: 'acme/repo101' } });
    expect(body.commits.map((c: { message: string }) => c.message.split('\n')[0])).toEqual(['commit 1', 'commit 2']);
    expect(body.head_commit.id).toBe(body.after);
    expect(body.pusher.login).toBe('alice');

    const [d] = await settled(ADMIN, system.id);
    expect(d).toMatchObject({ guid: req.headers['x-gitea-delivery'], status: 'OK', status_code: 200, event: 'push', state: 'delivered', redelivery: false, repository_id: 101 });
    const detail = await delivery(ADMIN, system.id, d.id);
    expect(detail.request.headers?.Authorization).toBe('Bearer ********');
    expect(JSON.stringify(detail)).not.toContain('hook-token');
    expect((detail.request.payload as { ref: string }).ref).toBe('refs/heads/main');
    expect(detail.attempt_log).toHaveLength(1);
    // The attempt records the exact body sent (the payload, copied from the delivery row by the database).
    expect(detail.attempt_log[0].request.payload).toEqual(body);
    const [row] = await infra.sql('SELECT event_id FROM hook_deliveries WHERE id = $1', [d.id]);
    const [stored] = await infra.sql('SELECT request_body FROM hook_delivery_attempts WHERE delivery_id = $1', [d.id]);
    expect(stored.request_body).toBe(req.body);
    expect(row.event_id).toBe(event.id);

    // The same event again (a JetStream redelivery) makes no second delivery.
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 102, ownerId: 3 }));
    await waitFor(() => receiver.at('/system').length === 2, 'second push');
    const again = await infra.sql('SELECT count(*)::int AS n FROM hook_deliveries WHERE event_id = $1', [event.id]);
    expect(again[0].n).toBe(1);
    await rpc.send(HooksSubjects.webhookEdit, { actor: admin, scope: ADMIN, hookId: system.id, body: { active: false } });
  });

  it('form content type posts payload=<urlencoded json>, signed over those bytes; localhost resolves through the guard', async () => {
    const h = await hook(repoScope(110), '/form', { config: { content_type: 'form' } }, receiver.url.replace('127.0.0.1', 'localhost'));
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 110, ownerId: 3 }));
    const [req] = await waitFor(() => (receiver.at('/form').length ? receiver.at('/form') : null), 'form delivery');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.octokitValid && req.hmacValid).toBe(true);
    expect(JSON.parse(new URLSearchParams(req.body).get('payload')!).repository.id).toBe(110);
    const [d] = await settled(repoScope(110), h.id);
    const [stored] = await infra.sql('SELECT request_body FROM hook_delivery_attempts WHERE delivery_id = $1', [d.id]);
    expect(stored.request_body).toBe(req.body);
  });

  it('a URL with credentials authenticates the delivery; the delivery record shows them masked', async () => {
    const h = await hook(repoScope(115), '/creds', {}, receiver.url.replace('http://', 'http://ci:pa55w0rd@'));
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 115, ownerId: 3 }));
    const [req] = await waitFor(() => (receiver.at('/creds').length ? receiver.at('/creds') : null), 'delivery with credentials');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('ci:pa55w0rd').toString('base64')}`);
    const [d] = await settled(repoScope(115), h.id);
    const detail = await delivery(repoScope(115), h.id, d.id);
    expect(detail.url).toBe(receiver.url.replace('http://', 'http://ci:********@') + '/creds');
    expect(JSON.stringify(detail)).not.toContain('pa55w0rd');
  });

  it('branch_filter applies to push, create and delete of branches (not tags)', async () => {
    const h = await hook(repoScope(120), '/filtered', { branch_filter: '{release/*,hotfix-?}', events: ['push', 'create', 'delete'] });
    const sha = 'c'.repeat(40);
    const pub = (ref: string, old: string, next: string) =>
      infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 120, ownerId: 3, ref, old, new: next === ZERO_SHA ? undefined : next, commits: next === ZERO_SHA ? 0 : 1 }));
    await pub('refs/heads/main', 'a'.repeat(40), sha);
    await pub('refs/heads/release/2.0', ZERO_SHA, sha);
    await pub('refs/heads/hotfix-1', 'a'.repeat(40), sha);
    await pub('refs/tags/v9', ZERO_SHA, sha);
    const del = pushEventData({ repoId: 120, ownerId: 3, ref: 'refs/heads/release/1.0', commits: 0 });
    del.updates[0].new = ZERO_SHA;
    await infra.publish(RepoEvents.pushReceived, del);
    const got = await waitFor(() => (receiver.at('/filtered').length >= 6 ? receiver.at('/filtered') : null), 'filtered deliveries');
    await settled(repoScope(120), h.id, 6);
    const seen = got.map((r) => `${r.headers['x-gitea-event']} ${JSON.parse(r.body).ref}`).sort();
    expect(seen).toEqual([
      'create release/2.0', 'create v9', 'delete release/1.0', 'push refs/heads/hotfix-1', 'push refs/heads/release/2.0', 'push refs/tags/v9',
    ]);
    expect(JSON.parse(got.find((r) => r.headers['x-gitea-event'] === 'create' && r.body.includes('release/2.0'))!.body)).toMatchObject({
      ref: 'release/2.0', ref_type: 'branch', sha,
    });
  });

  it('issue events follow Gitea event families (issues vs issues_only) and carry the issue payload', async () => {
    const family = await hook(repoScope(125), '/family', { events: ['issues'] });
    const only = await hook(repoScope(125), '/only', { events: ['issues_only'] });
    await hook(repoScope(125), '/pushonly', { events: ['push'] });
    const { repository, pusher } = pushEventData({ repoId: 125, ownerId: 3 });
    const issue = { id: 77, number: 3, title: 'It breaks', body: 'steps', state: 'open' };
    await infra.publish(IssueEvents.opened, { action: 'opened', number: 3, issue, isPull: false, repository, sender: pusher });
    await infra.publish(IssueCommentEvents.created, {
      action: 'created', issue, comment: { id: 501, body: 'me too' }, isPull: false, repository, sender: pusher,
    });
    await settled(repoScope(125), family.id, 2);
    await settled(repoScope(125), only.id, 1);
    const got = receiver.at('/family').map((r) => `${r.headers['x-gitea-event']}/${r.headers['x-gitea-event-type']}/${JSON.parse(r.body).action}`);
    expect(got.sort()).toEqual(['issue_comment/issue_comment/created', 'issues/issues/opened']);
    expect(receiver.at('/only').map((r) => JSON.parse(r.body))).toMatchObject([{ action: 'opened', number: 3, issue: { title: 'It breaks' } }]);
    expect(receiver.at('/pushonly')).toHaveLength(0);
  });

  it('retries transient failures (500, 500, then 200): three attempts, one guid', async () => {
    receiver.on('/flaky', (n) => ({ status: n < 2 ? 500 : 200, body: n < 2 ? 'boom' : 'fine' }));
    const h = await hook(repoScope(130), '/flaky');
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 130, ownerId: 3 }));
    const [d] = await settled(repoScope(130), h.id);
    const reqs = receiver.at('/flaky');
    expect(reqs).toHaveLength(3);
    expect(new Set(reqs.map((r) => r.headers['x-gitea-delivery']))).toEqual(new Set([d.guid]));
    expect(reqs.every((r) => r.octokitValid && r.hmacValid)).toBe(true);
    expect(d).toMatchObject({ state: 'delivered', attempts: 3, status_code: 200 });
    const detail = await delivery(repoScope(130), h.id, d.id);
    expect(detail.attempt_log.map((a) => [a.number, a.status_code, a.outcome])).toEqual([
      [1, 500, 'retry'], [2, 500, 'retry'], [3, 200, 'delivered'],
    ]);
    expect(detail.attempt_log[0].response.payload).toBe('boom');
    expect(detail.attempt_log[0].status).toBe('Invalid HTTP Response: 500');
  });

  it('records a response whose body has NUL bytes (PostgreSQL text cannot hold them: they become U+FFFD)', async () => {
    receiver.on('/binary', () => ({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: 'ok\u0000bin' }));
    const h = await hook(repoScope(132), '/binary');
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 132, ownerId: 3 }));
    const [d] = await settled(repoScope(132), h.id);
    expect(d).toMatchObject({ state: 'delivered', attempts: 1, status_code: 200 });
    const [attempt] = (await delivery(repoScope(132), h.id, d.id)).attempt_log;
    expect(attempt.response.payload).toBe('ok\uFFFDbin');
    expect(receiver.at('/binary')).toHaveLength(1);
  });

  it('honours Retry-After on 429', async () => {
    receiver.on('/throttled', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const h = await hook(repoScope(131), '/throttled');
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 131, ownerId: 3 }));
    const [d] = await settled(repoScope(131), h.id);
    const log = (await delivery(repoScope(131), h.id, d.id)).attempt_log;
    expect(log.map((a) => a.status_code)).toEqual([429, 200]);
    const rows = await infra.sql('SELECT started_at, duration_ms FROM hook_delivery_attempts WHERE delivery_id = $1 ORDER BY number', [d.id]);
    expect(rows[1].started_at.getTime() - rows[0].started_at.getTime()).toBeGreaterThanOrEqual(1_000);
  });

  it('a 400 is final after one attempt; a redelivery makes a new attempt with the same guid, marked redelivery', async () => {
    receiver.on('/rejecting', (n) => ({ status: n === 0 ? 400 : 202 }));
    const h = await hook(repoScope(140), '/rejecting');
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 140, ownerId: 3 }));
    const [failed] = await settled(repoScope(140), h.id);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, status: 'Invalid HTTP Response: 400', status_code: 400 });
    expect(receiver.at('/rejecting')).toHaveLength(1);

    const redelivered = await rpc.send(HooksSubjects.deliveryRedeliver, {
      actor: admin, scope: repoScope(140), hookId: h.id, deliveryId: failed.id,
    });
    expect(redelivered).toMatchObject({ id: failed.id, guid: failed.guid, redelivery: true, state: 'pending' });
    const [done] = await settled(repoScope(140), h.id);
    expect(done).toMatchObject({ state: 'delivered', attempts: 2, redelivery: true, guid: failed.guid, status_code: 202 });
    const reqs = receiver.at('/rejecting');
    expect(reqs).toHaveLength(2);
    expect(reqs[1].headers['x-github-delivery']).toBe(failed.guid);
    expect(reqs[1].body).toBe(reqs[0].body);
    const log = (await delivery(repoScope(140), h.id, failed.id)).attempt_log;
    expect(log.map((a) => [a.number, a.redelivery, a.outcome])).toEqual([[1, false, 'failed'], [2, true, 'delivered']]);

    const other = rpc.send(HooksSubjects.deliveryGet, { actor: admin, scope: repoScope(141), hookId: h.id, deliveryId: failed.id });
    await expect(other).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('a timeout is transient; connection refused too; both stop after MAX_ATTEMPTS as failed', async () => {
    receiver.on('/slow', (n) => ({ status: 200, delayMs: n === 0 ? 3_000 : 0 }));
    const slow = await hook(repoScope(150), '/slow');
    const refused = await hook(repoScope(150), '/nothing', {}, 'http://127.0.0.1:1');
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 150, ownerId: 3 }));
    const [s] = await settled(repoScope(150), slow.id);
    const slowLog = (await delivery(repoScope(150), slow.id, s.id)).attempt_log;
    expect(slowLog[0]).toMatchObject({ outcome: 'retry', status_code: 0 });
    expect(slowLog[0].error).toMatch(/timed out/);
    expect(s.state).toBe('delivered');
    const [r] = await settled(repoScope(150), refused.id);
    expect(r).toMatchObject({ state: 'failed', attempts: 5 });
    expect(r.status).toMatch(/ECONNREFUSED/);
  });

  it('the hook test sends a push of the default branch (repo-service absent: without a commit)', async () => {
    const h = await hook(repoScope(160), '/tested', { active: false, events: ['issues'] });
    const d = await rpc.send(HooksSubjects.webhookTest, { actor: admin, scope: repoScope(160), hookId: h.id });
    expect(d.event).toBe('push');
    const [req] = await waitFor(() => (receiver.at('/tested').length ? receiver.at('/tested') : null), 'test delivery');
    expect(JSON.parse(req.body)).toMatchObject({ ref: 'refs/heads/main', repository: { id: 160, full_name: 'acme/repo160' }, sender: { login: 'root' } });
    expect(req.headers['x-gitea-delivery']).toBe(d.guid);
  });

  it('deliveries are listed newest first with a total, per hook', async () => {
    const h = await hook(repoScope(170), '/many');
    for (let i = 0; i < 3; i++) await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 170, ownerId: 3 }));
    const items = await settled(repoScope(170), h.id, 3);
    expect(items.map((d) => d.id)).toEqual([...items.map((d) => d.id)].sort((a, b) => b - a));
    const page = await rpc.send(HooksSubjects.deliveryList, {
      actor: admin, scope: repoScope(170), hookId: h.id, query: { per_page: 2 },
    });
    expect(page).toMatchObject({ total: 3 });
    expect(page.items).toHaveLength(2);
    const missing = await rpc.send(HooksSubjects.deliveryList, { actor: admin, scope: repoScope(171), hookId: h.id, query: {} }).catch((e: DomainError) => e);
    expect((missing as DomainError).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('deleting a repository removes its hooks; owner and system hooks get the repository event', async () => {
    const own = await hook(repoScope(180), '/gone', { events: ['repository'] });
    const org = await rpc.send(HooksSubjects.webhookCreate, {
      actor: admin, scope: ADMIN, body: { type: 'gitea', active: true, events: ['repository'], config: { url: `${receiver.url}/sys-repo`, content_type: 'json', secret: SECRET, is_system_webhook: '1' } },
    });
    const data = pushEventData({ repoId: 180, ownerId: 3 });
    await infra.publish(RepoEvents.repositoryDeleted, { repository: data.repository, sender: data.pusher });
    const [req] = await waitFor(() => (receiver.at('/sys-repo').length ? receiver.at('/sys-repo') : null), 'repository deleted');
    expect(JSON.parse(req.body)).toMatchObject({ action: 'deleted', repository: { id: 180 } });
    await settled(ADMIN, org.id);
    expect(receiver.at('/gone')).toHaveLength(0);
    expect(await infra.sql('SELECT id FROM webhooks WHERE id = $1', [own.id])).toEqual([]);
  });

  it('a package event outside any repository reaches system hooks, never default hooks (templates) nor repository hooks', async () => {
    const cfg = (path: string, system: boolean) => ({
      type: 'gitea', active: true, events: ['package'],
      config: { url: `${receiver.url}${path}`, content_type: 'json', secret: SECRET, is_system_webhook: system },
    });
    const system = await rpc.send(HooksSubjects.webhookCreate, { actor: admin, scope: ADMIN, body: cfg('/pkg-system', true) });
    await rpc.send(HooksSubjects.webhookCreate, { actor: admin, scope: ADMIN, body: cfg('/pkg-default', false) });
    await hook(repoScope(190), '/pkg-repo', { events: ['package'] });
    const pkg = { id: 5, type: 'generic', name: 'tool', version: '1.0.0', repository: null };
    const sender = { id: 3, login: 'acme' };
    await infra.publish(PackageEvents.versionCreated, { action: 'created', ownerId: 3, repository: null, package: pkg, sender });
    const [req] = await waitFor(() => (receiver.at('/pkg-system').length ? receiver.at('/pkg-system') : null), 'package delivery');
    expect(req.hmacValid).toBe(true);
    expect(req.headers['x-gitea-event']).toBe('package');
    expect(JSON.parse(req.body)).toEqual({ action: 'created', repository: null, package: pkg, organization: null, sender });
    await settled(ADMIN, system.id);
    expect(receiver.at('/pkg-default')).toHaveLength(0);
    expect(receiver.at('/pkg-repo')).toHaveLength(0);
  });
});
