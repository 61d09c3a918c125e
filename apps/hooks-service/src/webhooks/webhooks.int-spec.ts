// Hook management through the service's NATS subjects and its JetStream consumer.
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode, HooksSubjects, IdentitySubjects, RepoEvents, type AccessLevel, type ActorDto, type CreateHookBody,
  type HookDto, type HookScopeDto, type ListHooksQuery, type Paginated, type RepoRefDto, type RepositoryInitRequest,
} from '@cairn/contracts';
import { RpcClient, SecretBox } from '@cairn/platform';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Receiver, startInfra, startInProcess, waitFor, type Infra } from '../../test/support.js';

const admin: ActorDto = { id: 1, login: 'root', isAdmin: true, scopes: ['all'], hasTwoFactor: false };
const alice: ActorDto = { id: 5, login: 'alice', isAdmin: false, scopes: ['all'], hasTwoFactor: false };
const ADMIN: HookScopeDto = { level: 'admin' };
const repoRef = (id: number): RepoRefDto => ({ id, ownerId: 3, ownerName: 'acme', name: `r${id}`, defaultBranch: 'main' });
const repoScope = (id: number, access: AccessLevel = 'admin'): HookScopeDto => ({ level: 'repo', repo: repoRef(id), access });

let infra: Infra;
let app: INestMicroservice;
let rpc: RpcClient;
let identity: NatsConnection;
let receiver: Receiver;

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  infra = await startInfra('hooks');
  app = await startInProcess(infra);
  rpc = new RpcClient(infra.natsUrl, 10_000, 'hooks-it');
  await rpc.connect();
  receiver = await new Receiver('s3cret').start();
  // identity-service is not under test here: a responder on this file's private NATS answers its two subjects.
  identity = await connect({ servers: infra.natsUrl });
  const owners: Record<string, { id: number; kind: string; visibility: string }> = {
    acme: { id: 3, kind: 'organization', visibility: 'public' },
    bob: { id: 9, kind: 'user', visibility: 'public' },
  };
  const reply = (subject: string, fn: (req: any) => unknown) =>
    identity.subscribe(subject, {
      callback: (_e, m) => {
        const req = m.json<{ data: any }>().data;
        const response = fn(req);
        m.respond(JSON.stringify({ response, isDisposed: true, id: m.json<{ id: string }>().id }));
      },
    });
  reply(IdentitySubjects.ownerResolve, (req) => {
    const o = owners[String(req.name).toLowerCase()];
    return o ? { ...o, login: req.name, user: {} } : { cairnError: true, code: 'NOT_FOUND', message: 'owner does not exist' };
  });
  reply(IdentitySubjects.orgMembership, (req) => ({ isMember: req.userId === 5 || req.userId === 6, isOwner: req.userId === 5, teams: [] }));
});

afterAll(async () => {
  await identity?.drain();
  await rpc?.close();
  await app?.close();
  await receiver?.stop();
  await infra?.close();
});

const create = (actor: ActorDto | null, scope: HookScopeDto, body: CreateHookBody) =>
  rpc.send(HooksSubjects.webhookCreate, { actor, scope, body });
const list = (actor: ActorDto | null, scope: HookScopeDto, query: ListHooksQuery = {}) =>
  rpc.send(HooksSubjects.webhookList, { actor, scope, query });

describe('admin hooks', () => {
  let systemId: number;
  let defaultId: number;

  it('creates a system hook (string form of is_system_webhook): 201 shape, no secret', async () => {
    const hook = await create(admin, ADMIN, {
      type: 'gitea',
      config: { url: 'https://example.com/system', content_type: 'json', secret: 'topsecret', is_system_webhook: 'true' },
      events: ['push', 'issues'],
      authorization_header: 'Bearer abc',
      active: true,
    });
    systemId = hook.id;
    expect(hook).toMatchObject({
      // The authorization header is write-only: shown masked (Gitea shows it in clear).
      type: 'gitea', active: true, is_system_webhook: true, branch_filter: '', authorization_header: 'Bearer ********',
      config: { url: 'https://example.com/system', content_type: 'json', is_system_webhook: 'true' },
    });
    expect(hook.events).toEqual(['push', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment']);
    expect(JSON.stringify(hook)).not.toContain('topsecret');
    expect(hook.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const [row] = await infra.sql('SELECT secret_sealed, authorization_sealed FROM webhooks WHERE id = $1', [hook.id]);
    expect(row.secret_sealed).not.toContain('topsecret');
    expect(row.authorization_sealed).not.toContain('abc');
  });

  it('creates a default hook when is_system_webhook is absent or false (JSON boolean), inactive by default', async () => {
    const hook = await create(admin, ADMIN, { type: 'gitea', config: { url: 'http://example.com/d', content_type: 'form' } });
    defaultId = hook.id;
    expect(hook).toMatchObject({ is_system_webhook: false, active: false, events: ['push'] });
    const explicit = await create(admin, ADMIN, {
      type: 'slack',
      config: { url: 'https://hooks.slack.com/x', content_type: 'json', channel: '#ops', is_system_webhook: false },
    });
    expect(explicit.is_system_webhook).toBe(false);
    expect(explicit.config).toMatchObject({ channel: '#ops' });
  });

  it('lists by type: absent = system, default, all; paginated with a total', async () => {
    const ids = (p: Paginated<HookDto>) => p.items.map((h) => h.id);
    expect(ids(await list(admin, ADMIN))).toEqual([systemId]);
    expect(ids(await list(admin, ADMIN, { type: 'system' }))).toEqual([systemId]);
    expect(ids(await list(admin, ADMIN, { type: 'default' }))).toContain(defaultId);
    expect(ids(await list(admin, ADMIN, { type: 'default' }))).not.toContain(systemId);
    const all = await list(admin, ADMIN, { type: 'all', limit: 2 });
    expect(all.total).toBe(3);
    expect(all.items).toHaveLength(2);
    // Deliberately invalid: a type the query does not allow.
    const err = await failure(list(admin, ADMIN, { type: 'foo' } as unknown as ListHooksQuery));
    expect(err.code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(err.details?.join()).toMatch(/system, default, all/);
  });

  it('gets, edits only what is sent, deletes', async () => {
    const got = await rpc.send(HooksSubjects.webhookGet, { actor: admin, scope: ADMIN, hookId: systemId });
    expect(got.id).toBe(systemId);
    const edited = await rpc.send(HooksSubjects.webhookEdit, {
      actor: admin, scope: ADMIN, hookId: systemId, body: { active: false, config: { url: 'https://example.com/v2' } },
    });
    expect(edited).toMatchObject({ active: false, authorization_header: 'Bearer ********', branch_filter: '', is_system_webhook: true });
    expect(edited.config.url).toBe('https://example.com/v2');
    expect(edited.events).toEqual(got.events);
    // Credentials in the URL are masked too; sending back what GET showed keeps the stored values.
    const withCreds = await rpc.send(HooksSubjects.webhookEdit, {
      actor: admin, scope: ADMIN, hookId: systemId,
      body: { config: { url: 'https://ci:pa55@example.com/v3' }, authorization_header: 'Bearer abc' },
    });
    expect(withCreds.config.url).toBe('https://ci:********@example.com/v3');
    expect(JSON.stringify(withCreds)).not.toContain('pa55');
    const roundTrip = await rpc.send(HooksSubjects.webhookEdit, {
      actor: admin, scope: ADMIN, hookId: systemId,
      body: { config: { url: withCreds.config.url }, authorization_header: withCreds.authorization_header },
    });
    expect(roundTrip).toMatchObject({ authorization_header: 'Bearer ********', config: { url: 'https://ci:********@example.com/v3' } });
    const [stored] = await infra.sql('SELECT url, authorization_sealed FROM webhooks WHERE id = $1', [systemId]);
    expect(stored.url).toBe('https://ci:pa55@example.com/v3');
    expect(app.get(SecretBox).openOptional(stored.authorization_sealed)).toBe('Bearer abc');
    const again = await rpc.send(HooksSubjects.webhookEdit, {
      actor: admin, scope: ADMIN, hookId: systemId, body: { events: ['create'], branch_filter: 'main', authorization_header: '' },
    });
    expect(again).toMatchObject({ events: ['create'], branch_filter: 'main', authorization_header: '', active: false });
    await rpc.send(HooksSubjects.webhookDelete, { actor: admin, scope: ADMIN, hookId: systemId });
    expect((await failure(rpc.send(HooksSubjects.webhookGet, { actor: admin, scope: ADMIN, hookId: systemId }))).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('answers 404 for unknown ids and for repository hooks addressed as admin hooks', async () => {
    const repoHook = await create(alice, repoScope(50), { type: 'gitea', config: { url: 'https://e.com/r', content_type: 'json' } });
    for (const subject of [HooksSubjects.webhookGet, HooksSubjects.webhookDelete]) {
      expect((await failure(rpc.send(subject, { actor: admin, scope: ADMIN, hookId: repoHook.id }))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await failure(rpc.send(subject, { actor: admin, scope: ADMIN, hookId: 999_999 }))).code).toBe(ErrorCode.NOT_FOUND);
    }
    const edit = rpc.send(HooksSubjects.webhookEdit, { actor: admin, scope: ADMIN, hookId: repoHook.id, body: { active: true } });
    expect((await failure(edit)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('refuses invalid hooks with 422 and a message', async () => {
    const cases: Array<[CreateHookBody, RegExp]> = [
      [{ type: 'jenkins', config: { url: 'https://e.com', content_type: 'json' } }, /Invalid hook type: jenkins/],
      [{ type: 'gitea', config: { content_type: 'json' } }, /Missing config option: url/],
      [{ type: 'gitea', config: { url: 'https://e.com' } }, /Missing config option: content_type/],
      [{ type: 'gitea', config: { url: 'file:///etc/passwd', content_type: 'json' } }, /Invalid url/],
      [{ type: 'gitea', config: { url: 'https://e.com', content_type: 'json' }, branch_filter: '{a,b' }, /branch_filter/],
      [{ type: 'gitea', config: { url: 'https://e.com', content_type: 'json' }, events: ['pushed'] }, /pushed/],
      [{ type: 'gitea', config: { url: 'https://e.com', content_type: 'json', is_system_webhook: 'yes' } }, /is_system_webhook/],
    ];
    for (const [body, message] of cases) {
      const err = await failure(create(admin, ADMIN, body));
      expect(err.code, JSON.stringify(body)).toBe(ErrorCode.UNPROCESSABLE);
      expect(err.message).toMatch(message);
    }
    // Deliberately invalid: no config at all.
    const noConfig = await failure(create(admin, ADMIN, { type: 'gitea' } as CreateHookBody));
    expect(noConfig.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it('is for site admins only', async () => {
    expect((await failure(list(null, ADMIN))).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect((await failure(list(alice, ADMIN))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(create(alice, ADMIN, { type: 'gitea', config: {} }))).code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});

describe('repository and organization hooks', () => {
  it('repository admins manage their repository hooks; others and other repositories do not see them', async () => {
    const hook = await create(alice, repoScope(60), {
      type: 'gitea', config: { url: 'https://e.com/60', content_type: 'json' }, events: ['*'], active: true,
    });
    expect(hook.is_system_webhook).toBe(false);
    expect(hook.config.is_system_webhook).toBeUndefined();
    expect(hook.events.length).toBeGreaterThan(20);
    expect((await list(alice, repoScope(60))).items.map((h) => h.id)).toEqual([hook.id]);
    expect((await list(alice, repoScope(61))).items).toEqual([]);
    const other = rpc.send(HooksSubjects.webhookGet, { actor: alice, scope: repoScope(61), hookId: hook.id });
    expect((await failure(other)).code).toBe(ErrorCode.NOT_FOUND);
    const writer = rpc.send(HooksSubjects.webhookGet, { actor: alice, scope: repoScope(60, 'write'), hookId: hook.id });
    expect((await failure(writer)).code).toBe(ErrorCode.PERMISSION_DENIED);
  });

  it('organization owners and site admins manage organization hooks; members get 403, users 404', async () => {
    const scope: HookScopeDto = { level: 'org', org: 'acme' };
    const hook = await create(alice, scope, { type: 'gitea', config: { url: 'https://e.com/org', content_type: 'json' } });
    expect((await list(admin, scope)).items.map((h) => h.id)).toEqual([hook.id]);
    const member: ActorDto = { ...alice, id: 6, login: 'carol' };
    expect((await failure(list(member, scope))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(list(alice, { level: 'org', org: 'bob' }))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(list(alice, { level: 'org', org: 'nobody' }))).code).toBe(ErrorCode.NOT_FOUND);
  });
});

describe('default hooks', () => {
  it('are copied into a new repository exactly once, by repositoryInit and by the created event; only the copy fires', async () => {
    receiver.on('/default', () => ({ status: 200 }));
    const dflt = await create(admin, ADMIN, {
      type: 'gitea',
      config: { url: `${receiver.url}/default`, content_type: 'json', secret: 's3cret' },
      events: ['push', 'repository'],
      active: true,
    });
    const defaults = (await list(admin, ADMIN, { type: 'default' })).total;
    expect(defaults).toBeGreaterThan(1);
    const repository = { id: 70, ownerId: 3, ownerName: 'acme', ownerKind: 'organization', name: 'fresh', fullName: 'acme/fresh', private: false, defaultBranch: 'main', json: {} };
    const [first, second] = await Promise.all([
      rpc.send(HooksSubjects.repositoryInit, { repository }),
      rpc.send(HooksSubjects.repositoryInit, { repository }),
    ]);
    expect(first.copied + second.copied).toBe(defaults);
    // The durable event (as if repositoryInit had failed) finds the copy made and makes no second one.
    await infra.publish(RepoEvents.repositoryCreated, { repository, sender: null });
    const copies = await list(alice, repoScope(70));
    expect(copies.total).toBe(defaults);
    const copy = copies.items.find((h) => h.config.url === dflt.config.url)!;
    expect(copy.id).not.toBe(dflt.id);
    expect(copy).toMatchObject({ config: { url: dflt.config.url, content_type: 'json' }, events: dflt.events, active: true });

    // The created event reaches the copy (repository event) and never the default hook itself.
    const delivered = await waitFor(() => receiver.at('/default').find((r) => r.headers['x-gitea-event'] === 'repository'), 'repository event');
    expect(delivered.headers['x-github-hook-id']).toBe(String(copy.id));
    expect(delivered.octokitValid && delivered.hmacValid).toBe(true);
    expect(JSON.parse(delivered.body)).toMatchObject({ action: 'created', repository: { full_name: 'acme/fresh' } });
    const rows = await infra.sql('SELECT hook_id FROM hook_deliveries WHERE hook_id IN ($1, $2)', [dflt.id, copy.id]);
    expect(rows.map((r) => r.hook_id)).toEqual([copy.id]);

    // A repository created while hooks-service missed repositoryInit gets its copy from the event alone.
    const later = { ...repository, id: 71, name: 'later', fullName: 'acme/later' };
    await infra.publish(RepoEvents.repositoryCreated, { repository: later, sender: null });
    await waitFor(async () => (await list(alice, repoScope(71))).total === defaults, 'copies from the created event');
    await infra.publish(RepoEvents.repositoryCreated, { repository: later, sender: null });
    await rpc.send(HooksSubjects.repositoryInit, { repository: later });
    await waitFor(() => receiver.at('/default').filter((r) => r.body.includes('acme/later')).length === 2, 'both created events');
    expect((await list(alice, repoScope(71))).total).toBe(defaults);
  });

  it('repositoryInit validates its message', async () => {
    // Deliberately invalid: a string id.
    const err = await failure(rpc.send(HooksSubjects.repositoryInit, { repository: { id: 'x' } } as unknown as RepositoryInitRequest));
    expect(err.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });
});
