// Runner management through the service's NATS subjects; identity-service is stood in for by a responder.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode, IdentitySubjects, RunnersEvents, RunnersSubjects, type AccessLevel, type ActionsScopeDto, type ActorDto,
  type DomainError,
} from '@cairn/contracts';
import { DomainErrorFilter, RpcClient, createRpcValidationPipe } from '@cairn/platform';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../test/support/integration.js';
import { activeTokenHashes, insertRunner } from '../../../../test/support/runners.js';
import { hashRunnerToken } from './runner-token.js';

const alice: ActorDto = { id: 5, login: 'alice', isAdmin: false, scopes: ['all'], hasTwoFactor: false };
const bob: ActorDto = { id: 6, login: 'bob', isAdmin: false, scopes: ['all'], hasTwoFactor: false };
const root: ActorDto = { id: 1, login: 'root', isAdmin: true, scopes: ['all'], hasTwoFactor: false };
const ADMIN: ActionsScopeDto = { level: 'admin' };
const USER: ActionsScopeDto = { level: 'user' };
const ORG: ActionsScopeDto = { level: 'org', org: 'acme' };
const repoScope = (id: number, access: AccessLevel = 'owner'): ActionsScopeDto => ({
  level: 'repo',
  repo: { id, ownerId: 3, ownerName: 'acme', name: `r${id}`, defaultBranch: 'main' },
  access,
});

let db: ScratchDatabase;
let sql: pg.Client;
let nats: PrivateNats;
let app: INestMicroservice;
let rpc: RpcClient;
let identity: NatsConnection;

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  db = await createScratchDatabase('runners_api', { services: ['runners'] });
  nats = await startPrivateNats();
  Object.assign(process.env, {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    RUN_MODE: 'test',
    CAIRN__SECURITY__SECRET_KEY: 'runners-api-integration-secret-key',
    CAIRN__ACTIONS__RUNNER_OFFLINE_TIME: '1m',
    CAIRN__ACTIONS__RUNNER_IDLE_TIME: '10s',
  });
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  identity = await connect({ servers: nats.url });
  const reply = (subject: string, fn: (req: any) => unknown) =>
    identity.subscribe(subject, {
      callback: (_e, m) => {
        const response = fn(m.json<{ data: any }>().data);
        m.respond(JSON.stringify({ response, isDisposed: true, id: m.json<{ id: string }>().id }));
      },
    });
  reply(IdentitySubjects.ownerResolve, (req) =>
    String(req.name).toLowerCase() === 'acme'
      ? { id: 3, kind: 'organization', visibility: 'public', login: req.name, user: {} }
      : { cairnError: true, code: 'NOT_FOUND', message: 'owner does not exist' },
  );
  // alice owns acme; bob is a member only.
  reply(IdentitySubjects.orgMembership, (req) => ({ isMember: req.userId === 5 || req.userId === 6, isOwner: req.userId === 5, teams: [] }));

  const { AppModule } = await import('../app.module.js');
  app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
    transport: Transport.NATS,
    options: { servers: [nats.url], queue: 'runners-service' },
    logger: ['error'],
  });
  app.useGlobalPipes(createRpcValidationPipe());
  app.useGlobalFilters(new DomainErrorFilter());
  await app.listen();
  rpc = new RpcClient(nats.url, 10_000, 'runners-api-it');
  await rpc.connect();
}, 60_000);

afterAll(async () => {
  await rpc?.close();
  await app?.close();
  await identity?.drain();
  await sql?.end();
  await nats?.stop();
  await db?.drop();
});

describe('registration tokens', () => {
  it('the active token is answered unchanged; reset makes a new one and deactivates the older; stored hashed and sealed', async () => {
    const first = await rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: USER });
    expect(first.token).toMatch(/^[0-9a-f]{40}$/);
    expect((await rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: USER })).token).toBe(first.token);
    expect(await activeTokenHashes(sql, 5, 0)).toEqual([hashRunnerToken(first.token)]);
    const stored = await sql.query('SELECT token_sealed FROM runners.runner_registration_tokens WHERE owner_id = 5');
    expect(stored.rows[0].token_sealed).toMatch(/^v1\./);
    expect(stored.rows[0].token_sealed).not.toContain(first.token);

    const reset = await rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: USER, reset: true });
    expect(reset.token).not.toBe(first.token);
    expect(await activeTokenHashes(sql, 5, 0)).toEqual([hashRunnerToken(reset.token)]);
    expect((await rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: USER })).token).toBe(reset.token);

    // Each scope has its own; an inactive newest token is replaced on the next call.
    const repoToken = await rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: repoScope(40) });
    expect(repoToken.token).not.toBe(reset.token);
    expect(await activeTokenHashes(sql, 0, 40)).toEqual([hashRunnerToken(repoToken.token)]);
    await sql.query('UPDATE runners.runner_registration_tokens SET is_active = false WHERE repo_id = 40');
    const replaced = await rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: repoScope(40) });
    expect(replaced.token).not.toBe(repoToken.token);
  });

  it('concurrent first calls of a scope agree on one token', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 8 }, () => rpc.send(RunnersSubjects.registrationToken, { actor: root, scope: ADMIN })),
    );
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
    expect(await activeTokenHashes(sql, 0, 0)).toHaveLength(1);
  });

  it('checks who may: admin level site admins only, organizations their owners, repositories their owners', async () => {
    expect((await failure(rpc.send(RunnersSubjects.registrationToken, { actor: alice, scope: ADMIN }))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(rpc.send(RunnersSubjects.registrationToken, { actor: bob, scope: ORG }))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(
      (await failure(rpc.send(RunnersSubjects.registrationToken, { actor: bob, scope: repoScope(40, 'admin') }))).code,
    ).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(rpc.send(RunnersSubjects.registrationToken, { actor: null, scope: USER }))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });
});

describe('runners', () => {
  const now = Date.now();
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ids.global = await insertRunner(sql, { name: 'global', lastOnline: new Date(now - 5_000) });
    ids.user = await insertRunner(sql, { name: 'alice-own', ownerId: 5, lastOnline: new Date(now - 2 * 60_000) });
    ids.org = await insertRunner(sql, {
      name: 'acme-org', ownerId: 3, labels: ['self-hosted', 'x64'], ephemeral: true,
      lastOnline: new Date(now - 1_000), lastActive: new Date(now - 1_000),
    });
    ids.repo = await insertRunner(sql, { name: 'acme-repo', repoId: 41 });
    ids.otherRepo = await insertRunner(sql, { name: 'other-repo', repoId: 42 });
  });

  it('each level lists exactly its own (admin: all; org not its repositories; repo not the org or instance)', async () => {
    const names = async (actor: ActorDto, scope: ActionsScopeDto) => {
      const res = await rpc.send(RunnersSubjects.runnerList, { actor, scope, query: {} });
      expect(res.total_count).toBe(res.runners.length);
      return res.runners.map((r) => r.name).sort();
    };
    expect(await names(root, ADMIN)).toEqual(['acme-org', 'acme-repo', 'alice-own', 'global', 'other-repo']);
    expect(await names(alice, USER)).toEqual(['alice-own']);
    expect(await names(alice, ORG)).toEqual(['acme-org']);
    expect(await names(alice, repoScope(41))).toEqual(['acme-repo']);
    expect(await names(bob, USER)).toEqual([]);
  });

  it('pages in last_online order (never-seen runners last) with the total of all pages', async () => {
    const page1 = await rpc.send(RunnersSubjects.runnerList, { actor: root, scope: ADMIN, query: { page: 1, limit: 2 } });
    expect(page1.total_count).toBe(5);
    expect(page1.runners.map((r) => r.name)).toEqual(['acme-org', 'global']);
    const page3 = await rpc.send(RunnersSubjects.runnerList, { actor: root, scope: ADMIN, query: { page: 3, limit: 2 } });
    expect(page3.runners).toHaveLength(1);
  });

  it("answers Gitea's ActionRunner: online within the offline time, busy while recently active, labels by position", async () => {
    expect(await rpc.send(RunnersSubjects.runnerGet, { actor: alice, scope: ORG, runnerId: ids.org })).toEqual({
      id: ids.org,
      name: 'acme-org',
      status: 'online',
      busy: true,
      ephemeral: true,
      labels: [
        { id: 0, name: 'self-hosted', type: 'custom' },
        { id: 1, name: 'x64', type: 'custom' },
      ],
      last_online: expect.stringMatching(/Z$/),
    });
    expect(await rpc.send(RunnersSubjects.runnerGet, { actor: root, scope: ADMIN, runnerId: ids.global })).toMatchObject({
      status: 'online',
      busy: false,
    });
    expect(await rpc.send(RunnersSubjects.runnerGet, { actor: alice, scope: USER, runnerId: ids.user })).toMatchObject({
      status: 'offline',
      busy: false,
    });
    expect(await rpc.send(RunnersSubjects.runnerGet, { actor: alice, scope: repoScope(41), runnerId: ids.repo })).toMatchObject({
      status: 'offline',
      last_online: null,
    });
  });

  it('404s: a runner of another scope, an unknown id, id 0', async () => {
    const notInScope = await failure(rpc.send(RunnersSubjects.runnerGet, { actor: alice, scope: ORG, runnerId: ids.global }));
    expect(notInScope.code).toBe(ErrorCode.NOT_FOUND);
    expect(notInScope.message).toBe('No permission to access this runner');
    for (const runnerId of [0, 2_000_000_000]) {
      const missing = await failure(rpc.send(RunnersSubjects.runnerGet, { actor: root, scope: ADMIN, runnerId }));
      expect(missing.code).toBe(ErrorCode.NOT_FOUND);
      expect(missing.message).toBe('Runner not found');
    }
    expect((await failure(rpc.send(RunnersSubjects.runnerDelete, { actor: alice, scope: repoScope(41), runnerId: ids.otherRepo }))).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await failure(rpc.send(RunnersSubjects.runnerGet, { actor: bob, scope: USER, runnerId: ids.user }))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('labels: add keeps order and uniqueness, set replaces, remove one (404 when absent), clear', async () => {
    const base = { actor: alice, scope: repoScope(41), runnerId: ids.repo };
    expect(await rpc.send(RunnersSubjects.runnerLabels, base)).toEqual({
      total_count: 2,
      labels: [
        { id: 0, name: 'ubuntu-latest', type: 'custom' },
        { id: 1, name: 'linux', type: 'custom' },
      ],
    });
    const added = await rpc.send(RunnersSubjects.runnerLabelsAdd, { ...base, body: { labels: ['gpu', 'linux'] } });
    expect(added.labels.map((l) => l.name)).toEqual(['ubuntu-latest', 'linux', 'gpu']);
    const set = await rpc.send(RunnersSubjects.runnerLabelsSet, { ...base, body: { labels: ['a', 'b', 'a'] } });
    expect(set).toEqual({ total_count: 2, labels: [{ id: 0, name: 'a', type: 'custom' }, { id: 1, name: 'b', type: 'custom' }] });
    expect((await rpc.send(RunnersSubjects.runnerLabelRemove, { ...base, name: 'a' })).labels.map((l) => l.name)).toEqual(['b']);
    const absent = await failure(rpc.send(RunnersSubjects.runnerLabelRemove, { ...base, name: 'a' }));
    expect(absent.code).toBe(ErrorCode.NOT_FOUND);
    expect(await rpc.send(RunnersSubjects.runnerLabelsClear, base)).toEqual({ total_count: 0, labels: [] });
    const stored = await sql.query('SELECT labels FROM runners.runners WHERE id = $1', [ids.repo]);
    expect(stored.rows[0].labels).toEqual([]);
    const bad = await failure(rpc.send(RunnersSubjects.runnerLabelsSet, { ...base, body: { labels: ['has space'] } }));
    expect(bad.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it('delete is soft (404 afterwards, the row kept) and records runners.evt.runner.deleted', async () => {
    await rpc.send(RunnersSubjects.runnerDelete, { actor: alice, scope: ORG, runnerId: ids.org });
    const again = await failure(rpc.send(RunnersSubjects.runnerDelete, { actor: alice, scope: ORG, runnerId: ids.org }));
    expect(again.code).toBe(ErrorCode.NOT_FOUND);
    expect(again.message).toBe('Runner not found');
    expect((await failure(rpc.send(RunnersSubjects.runnerGet, { actor: root, scope: ADMIN, runnerId: ids.org }))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rpc.send(RunnersSubjects.runnerList, { actor: alice, scope: ORG, query: {} })).total_count).toBe(0);
    const row = await sql.query('SELECT deleted_at FROM runners.runners WHERE id = $1', [ids.org]);
    expect(row.rows[0].deleted_at).toBeInstanceOf(Date);
    const events = await sql.query('SELECT subject, payload FROM runners.outbox_events WHERE subject = $1', [RunnersEvents.runnerDeleted]);
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0].payload.data).toMatchObject({ runner: { id: ids.org, name: 'acme-org', ownerId: 3, repoId: 0 }, actorId: 5 });
  });
});
