// Actions variables and secrets through the service's NATS subjects, and the removal of a deleted scope's data.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode, IdentityEvents, IdentitySubjects, RepoEvents, RunnersSubjects, type AccessLevel, type ActionsScopeDto,
  type ActorDto, type DomainError,
} from '@cairn/contracts';
import {
  DomainErrorFilter, RpcClient, SecretBox, createRpcValidationPipe, ensureEventsStream, eventEnvelope, newEvent, publishEvent,
} from '@cairn/platform';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../test/support/integration.js';
import { ScopeCleanup } from '../events/scope-cleanup.js';

const SECRET_KEY = 'runners-integration-secret-key';
const alice: ActorDto = { id: 5, login: 'alice', isAdmin: false, scopes: ['all'], hasTwoFactor: false };
const bob: ActorDto = { id: 6, login: 'bob', isAdmin: false, scopes: ['all'], hasTwoFactor: false };
const carol: ActorDto = { id: 7, login: 'carol', isAdmin: false, scopes: ['all'], hasTwoFactor: false };
const root: ActorDto = { id: 1, login: 'root', isAdmin: true, scopes: ['all'], hasTwoFactor: false };
const USER: ActionsScopeDto = { level: 'user' };
const ORG: ActionsScopeDto = { level: 'org', org: 'acme' };
const HIDDEN_ORG: ActionsScopeDto = { level: 'org', org: 'secretive' };
const repoScope = (id: number, access: AccessLevel = 'owner'): ActionsScopeDto => ({
  level: 'repo',
  repo: { id, ownerId: 3, ownerName: 'acme', name: `r${id}`, defaultBranch: 'main' },
  access,
});

let db: ScratchDatabase;
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

async function waitFor(fn: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 30_000;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  db = await createScratchDatabase('runners', { services: ['runners'] });
  nats = await startPrivateNats();
  Object.assign(process.env, {
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    RUN_MODE: 'test',
    CAIRN__SECURITY__SECRET_KEY: SECRET_KEY,
  });
  identity = await connect({ servers: nats.url });
  await ensureEventsStream(identity);
  const owners: Record<string, { id: number; kind: string; visibility: string }> = {
    acme: { id: 3, kind: 'organization', visibility: 'public' },
    secretive: { id: 4, kind: 'organization', visibility: 'private' },
    bob: { id: 6, kind: 'user', visibility: 'public' },
  };
  const reply = (subject: string, fn: (req: any) => unknown) =>
    identity.subscribe(subject, {
      callback: (_e, m) => {
        const response = fn(m.json<{ data: any }>().data);
        m.respond(JSON.stringify({ response, isDisposed: true, id: m.json<{ id: string }>().id }));
      },
    });
  reply(IdentitySubjects.ownerResolve, (req) => {
    const o = owners[String(req.name).toLowerCase()];
    return o ? { ...o, login: req.name, user: {} } : { cairnError: true, code: 'NOT_FOUND', message: 'owner does not exist' };
  });
  // alice owns both organizations; bob is a member of acme only.
  reply(IdentitySubjects.orgMembership, (req) => ({
    isMember: req.userId === 5 || (req.userId === 6 && req.orgId === 3),
    isOwner: req.userId === 5,
    teams: [],
  }));

  const { AppModule } = await import('../app.module.js');
  app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
    transport: Transport.NATS,
    options: { servers: [nats.url], queue: 'runners-service' },
    logger: ['error'],
  });
  app.useGlobalPipes(createRpcValidationPipe());
  app.useGlobalFilters(new DomainErrorFilter());
  await app.listen();
  rpc = new RpcClient(nats.url, 10_000, 'runners-it');
  await rpc.connect();
}, 60_000);

afterAll(async () => {
  await rpc?.close();
  await app?.close();
  await identity?.drain();
  await nats?.stop();
  await db?.drop();
});

describe('variables', () => {
  it('are created once per scope (case-insensitively), read, renamed and deleted', async () => {
    await rpc.send(RunnersSubjects.variableCreate, { actor: alice, scope: USER, name: 'build_env', body: { value: 'a\r\nb' } });
    const dup = await failure(
      rpc.send(RunnersSubjects.variableCreate, { actor: alice, scope: USER, name: 'BUILD_ENV', body: { value: 'x' } }),
    );
    expect(dup.code).toBe(ErrorCode.ALREADY_EXISTS);
    // The same name in another scope is another variable.
    await rpc.send(RunnersSubjects.variableCreate, { actor: bob, scope: USER, name: 'build_env', body: { value: 'bob' } });

    expect(await rpc.send(RunnersSubjects.variableGet, { actor: alice, scope: USER, name: 'Build_Env' })).toEqual({
      owner_id: 5,
      repo_id: 0,
      name: 'BUILD_ENV',
      data: 'a\nb',
      description: '',
    });
    await rpc.send(RunnersSubjects.variableUpdate, {
      actor: alice,
      scope: USER,
      name: 'build_env',
      body: { name: 'RELEASE_ENV', value: 'c', description: 'renamed' },
    });
    const page = await rpc.send(RunnersSubjects.variableList, { actor: alice, scope: USER, query: {} });
    expect(page).toEqual({ total: 1, items: [{ owner_id: 5, repo_id: 0, name: 'RELEASE_ENV', data: 'c', description: 'renamed' }] });
    await rpc.send(RunnersSubjects.variableDelete, { actor: alice, scope: USER, name: 'release_env' });
    const gone = await failure(rpc.send(RunnersSubjects.variableGet, { actor: alice, scope: USER, name: 'RELEASE_ENV' }));
    expect(gone.code).toBe(ErrorCode.NOT_FOUND);
    expect((await rpc.send(RunnersSubjects.variableGet, { actor: bob, scope: USER, name: 'BUILD_ENV' })).data).toBe('bob');
  });

  it("refuses names against Gitea's rules with INVALID_ARGUMENT naming the rule", async () => {
    for (const [name, rule] of [['1ABC', /start with a digit/], ['GITEA_X', /GITHUB_ or GITEA_/], ['ci', /CI is reserved/]] as const) {
      const err = await failure(
        rpc.send(RunnersSubjects.variableCreate, { actor: alice, scope: USER, name, body: { value: 'x' } }),
      );
      expect(err.code, name).toBe(ErrorCode.INVALID_ARGUMENT);
      expect(err.message, name).toMatch(rule);
    }
    const nul = await failure(
      rpc.send(RunnersSubjects.variableCreate, { actor: alice, scope: USER, name: 'NUL', body: { value: 'a\u0000b' } }),
    );
    expect(nul.code).toBe(ErrorCode.INVALID_ARGUMENT);
    const odd = await failure(rpc.send(RunnersSubjects.variableGet, { actor: alice, scope: USER, name: 'a\u0000b' }));
    expect(odd.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('checks who may manage a scope again: repository owners, organization owners, site admins', async () => {
    const send = (actor: ActorDto | null, scope: ActionsScopeDto) =>
      rpc.send(RunnersSubjects.variableList, { actor, scope, query: {} });
    expect((await failure(send(alice, repoScope(10, 'admin')))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await send(alice, repoScope(10))).total).toBe(0);
    expect((await send(root, repoScope(10, 'read'))).total).toBe(0);
    expect((await failure(send(bob, ORG))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(send(carol, ORG))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(send(carol, HIDDEN_ORG))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(send(alice, { level: 'org', org: 'bob' }))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await send(alice, ORG)).total).toBe(0);
    expect((await send(root, HIDDEN_ORG)).total).toBe(0);
    expect((await failure(send(null, USER))).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect((await failure(send(alice, { level: 'admin' }))).code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});

describe('secrets', () => {
  it('are sealed with the secret box at rest, replaced in place, and listed without their values', async () => {
    const value = `value-${randomUUID()}`;
    const put = (data: string) =>
      rpc.send(RunnersSubjects.secretPut, { actor: alice, scope: ORG, name: 'npm_token', body: { data, description: 'npm' } });
    expect(await put(value)).toEqual({ created: true });
    expect(await put(`${value}-2`)).toEqual({ created: false });

    const rows = await db.sql<{ name: string; owner_id: number; data_sealed: string }>(
      'SELECT name, owner_id, data_sealed FROM runners.secrets',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'NPM_TOKEN', owner_id: 3 });
    expect(rows[0].data_sealed).not.toContain(value);
    expect(new SecretBox(SECRET_KEY, 'actions-secret').open(rows[0].data_sealed)).toBe(`${value}-2`);

    const page = await rpc.send(RunnersSubjects.secretList, { actor: alice, scope: ORG, query: {} });
    expect(page.total).toBe(1);
    expect(Object.keys(page.items[0]).sort()).toEqual(['created_at', 'description', 'name']);
    expect(JSON.stringify(page)).not.toContain(value);

    await rpc.send(RunnersSubjects.secretDelete, { actor: alice, scope: ORG, name: 'NPM_TOKEN' });
    const gone = await failure(rpc.send(RunnersSubjects.secretDelete, { actor: alice, scope: ORG, name: 'NPM_TOKEN' }));
    expect(gone.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('has no instance level (Gitea has no global secrets)', async () => {
    const err = await failure(
      rpc.send(RunnersSubjects.secretPut, { actor: root, scope: { level: 'admin' }, name: 'X', body: { data: 'x' } }),
    );
    expect(err.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });
});

describe('deletion events', () => {
  async function seed(ownerId: number, repoId: number): Promise<void> {
    await db.sql(
      `INSERT INTO runners.runners (uuid, name, owner_id, repo_id, labels, token_hash, updated_at)
       VALUES ($1, 'r', $2, $3, '{linux}', $4, now())`,
      [randomUUID(), ownerId, repoId, randomUUID()],
    );
    await db.sql(
      `INSERT INTO runners.runner_registration_tokens (owner_id, repo_id, token_hash, token_sealed, updated_at)
       VALUES ($1, $2, $3, 'v1.x.y.z', now())`,
      [ownerId, repoId, randomUUID()],
    );
    await db.sql(
      `INSERT INTO runners.variables (owner_id, repo_id, name, data, updated_at) VALUES ($1, $2, 'V', 'v', now())`,
      [ownerId, repoId],
    );
    await db.sql(
      `INSERT INTO runners.secrets (owner_id, repo_id, name, data_sealed, updated_at) VALUES ($1, $2, 'S', 'v1.x', now())`,
      [ownerId, repoId],
    );
  }

  async function rows(ownerId: number, repoId: number): Promise<number> {
    let n = 0;
    for (const table of ['runners', 'runner_registration_tokens', 'variables', 'secrets']) {
      const [r] = await db.sql<{ n: string }>(
        `SELECT count(*) AS n FROM runners.${table} WHERE owner_id = $1 AND repo_id = $2`,
        [ownerId, repoId],
      );
      n += Number(r.n);
    }
    return n;
  }

  it("a repository's and a user's deletion events remove their runners, tokens, variables and secrets only", async () => {
    await seed(0, 77);
    await seed(0, 78);
    await seed(40, 0);
    await seed(41, 0);
    expect(await rows(0, 77)).toBe(4);
    const js = jetstream(identity);
    await publishEvent(js, eventEnvelope(RepoEvents.repositoryDeleted, { repository: { id: 77, ownerId: 3 }, sender: null }) /* only the ids the cleanup reads */);
    await publishEvent(js, newEvent(IdentityEvents.userDeleted, { id: 40, login: 'gone', kind: 'user' }));
    await waitFor(async () => (await rows(0, 77)) === 0 && (await rows(40, 0)) === 0, 'the deleted scopes emptied');
    expect(await rows(0, 78)).toBe(4);
    expect(await rows(41, 0)).toBe(4);
  });

  it('handles an event once: a redelivered deletion changes nothing', async () => {
    const cleanup = app.get(ScopeCleanup);
    const event = eventEnvelope(RepoEvents.repositoryDeleted, { repository: { id: 90, ownerId: 3 }, sender: null }) /* only the ids the cleanup reads */;
    await seed(0, 90);
    expect(await cleanup.handle(event)).toEqual({ runners: 1, registrationTokens: 1, variables: 1, secrets: 1 });
    await seed(0, 90);
    expect(await cleanup.handle(event)).toBeNull();
    expect(await rows(0, 90)).toBe(4);
    expect(await cleanup.handle(newEvent(IdentityEvents.tokenRevoked, { tokenId: 1, userId: 5 }))).toBeNull();
  });
});
