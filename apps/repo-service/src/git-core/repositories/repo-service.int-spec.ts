// repo-service's repositories, collaborators and access on its real module graph, private NATS, own database, real git.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode, HooksSubjects, IdentitySubjects, RepoEvents, RepoSubjects,
  type AccessLevel, type ActorDto, type OrgMembershipReply, type OrgStandingsReply, type OwnerDto, type Paginated,
  type AddCollaboratorRequest, type CreateRepoBody, type ListQuery, type ListRepositoriesRequest,
  type RepoCreateTarget, type RepositoryDto, type UserDto, type Visibility,
} from '@cairn/contracts';
import { DomainErrorFilter, OutboxRelay, RpcClient, createRpcValidationPipe } from '@cairn/platform';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../../test/support/integration.js';

const ROOT_URL = 'http://cairn.test:3000/';


interface Account {
  id: number;
  login: string;
  kind: 'user' | 'organization';
  visibility?: Visibility;
  isAdmin?: boolean;
  fullName?: string;
  email?: string;
}

type Team = OrgMembershipReply['teams'][number];

const accounts: Account[] = [
  { id: 1, login: 'alice', kind: 'user', fullName: 'Alice Liddell', email: 'alice@example.com' },
  { id: 2, login: 'bob', kind: 'user', email: 'bob@example.com' },
  { id: 3, login: 'carol', kind: 'user' },
  { id: 4, login: 'dave', kind: 'user' },
  { id: 5, login: 'erin', kind: 'user' },
  { id: 6, login: 'frank', kind: 'user' },
  { id: 7, login: 'gina', kind: 'user' },
  { id: 8, login: 'hank', kind: 'user' },
  { id: 9, login: 'root', kind: 'user', isAdmin: true },
  { id: 10, login: 'stranger', kind: 'user' },
  { id: 100, login: 'acme', kind: 'organization' },
  { id: 101, login: 'hush', kind: 'organization', visibility: 'private' },
];

const team = (id: number, permission: Team['permission'], includesAll = false, canCreate = false): Team => ({
  id,
  name: `team-${id}`,
  permission,
  includesAllRepositories: includesAll,
  canCreateOrgRepo: canCreate,
});

const memberships = new Map<number, Map<number, OrgMembershipReply>>([
  [
    100,
    new Map([
      [4, { isMember: true, isOwner: true, teams: [team(1, 'owner', true, true)] }], // dave: Owners
      [5, { isMember: true, isOwner: false, teams: [team(11, 'write')] }], // erin: team given single repos
      [6, { isMember: true, isOwner: false, teams: [team(12, 'read', true)] }], // frank: reads everything
      [7, { isMember: true, isOwner: false, teams: [team(13, 'read', false, true)] }], // gina: may create repos
      [8, { isMember: true, isOwner: false, teams: [] }], // hank: member, no team
    ]),
  ],
  [101, new Map([[4, { isMember: true, isOwner: false, teams: [team(21, 'read', true)] }]])],
]);

function userDto(a: Account): UserDto {
  return {
    id: a.id,
    login: a.login,
    login_name: '',
    source_id: 0,
    full_name: a.fullName ?? '',
    email: a.email ?? `${a.login}@example.com`,
    avatar_url: '',
    html_url: `${ROOT_URL}${a.login}`,
    language: '',
    is_admin: a.isAdmin ?? false,
    last_login: '1970-01-01T00:00:00Z',
    created: '2024-01-01T00:00:00Z',
    restricted: false,
    active: true,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: a.visibility ?? 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: a.login,
  };
}

const hookCalls: Array<{ repository: { fullName: string; id: number } }> = [];

/** Plain methods; the Nest metadata is applied below (test files are compiled without legacy decorators). */
class FakeIdentityAndHooks {
  owner(req: { name: string }): OwnerDto {
    const a = accounts.find((x) => x.login.toLowerCase() === req.name.toLowerCase());
    if (!a) throw DomainError.notFound(`user or organization "${req.name}" does not exist`);
    return { id: a.id, login: a.login, kind: a.kind, visibility: a.visibility ?? 'public', user: userDto(a) };
  }

  lookup(req: { ids?: number[]; logins?: string[] }) {
    const logins = (req.logins ?? []).map((l) => l.toLowerCase());
    const users = accounts
      .filter((a) => req.ids?.includes(a.id) || logins.includes(a.login.toLowerCase()))
      .map(userDto);
    return { users, byEmail: {}, adminIds: users.filter((u) => u.is_admin).map((u) => u.id) };
  }

  membership(req: { orgId: number; userId: number }): OrgMembershipReply {
    return memberships.get(req.orgId)?.get(req.userId) ?? { isMember: false, isOwner: false, teams: [] };
  }

  standings(req: { userId: number }): OrgStandingsReply {
    const standings = [...memberships.entries()]
      .filter(([, members]) => members.has(req.userId))
      .map(([orgId, members]) => ({ orgId, ...members.get(req.userId)! }));
    return { standings };
  }

  hooks(req: { repository: { fullName: string; id: number } }) {
    hookCalls.push(req);
    return { copied: 0 };
  }
}

const fakePatterns: Record<string, keyof FakeIdentityAndHooks> = {
  [IdentitySubjects.ownerResolve]: 'owner',
  [IdentitySubjects.userLookup]: 'lookup',
  [IdentitySubjects.orgMembership]: 'membership',
  [IdentitySubjects.orgStandings]: 'standings',
  [HooksSubjects.repositoryInit]: 'hooks',
};
for (const [subject, method] of Object.entries(fakePatterns)) {
  const proto = FakeIdentityAndHooks.prototype;
  MessagePattern(subject)(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
}
Controller()(FakeIdentityAndHooks);
class FakeModule {}
Module({ controllers: [FakeIdentityAndHooks] })(FakeModule);


let nats: PrivateNats;
let repoRoot: string;
let databaseUrl: string;
let db: ScratchDatabase;
let identityApp: INestMicroservice;
let repoApp: INestMicroservice;
let rpc: RpcClient;

function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]) {
  return db.sql<R>(text, params);
}

beforeAll(async () => {
  db = await createScratchDatabase('repo', { services: ['repo'] });
  databaseUrl = db.url;

  nats = await startPrivateNats();
  const natsUrl = nats.url;

  repoRoot = mkdtempSync(path.join(tmpdir(), 'cairn-it-repo-storage-'));
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    CAIRN__REPOSITORY__ROOT: repoRoot,
    CAIRN__SERVER__ROOT_URL: ROOT_URL,
    CAIRN__SERVER__SSH_PORT: '2222',
    CAIRN__CAIRN__RPC_TIMEOUT: '10s',
  });

  const options = (queue: string): MicroserviceOptions => ({
    transport: Transport.NATS,
    options: { servers: [natsUrl], queue },
  });
  identityApp = await NestFactory.createMicroservice<MicroserviceOptions>(FakeModule, { ...options('fake'), logger: false });
  identityApp.useGlobalFilters(new DomainErrorFilter());
  await identityApp.listen();

  const { AppModule } = await import('../../app.module.js');
  repoApp = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
    ...options('repo-service'),
    logger: ['error'],
  });
  repoApp.useGlobalPipes(createRpcValidationPipe());
  repoApp.useGlobalFilters(new DomainErrorFilter());
  await repoApp.listen();

  rpc = new RpcClient(natsUrl, 10_000, 'repo-it');
  await rpc.connect();
});

afterAll(async () => {
  await rpc?.close().catch(() => undefined);
  await repoApp?.close().catch(() => undefined);
  await identityApp?.close().catch(() => undefined);
  await nats?.stop();
  await db?.drop();
  if (repoRoot) rmSync(repoRoot, { recursive: true, force: true });
});


function actor(login: string): ActorDto {
  const a = accounts.find((x) => x.login === login)!;
  return { id: a.id, login: a.login, isAdmin: a.isAdmin ?? false, scopes: ['all'], hasTwoFactor: false };
}

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

function create(login: string, body: CreateRepoBody, target: RepoCreateTarget = 'self', owner?: string) {
  return rpc.send(RepoSubjects.repositoryCreate, { actor: actor(login), target, owner, body });
}

function resolve(login: string | null, owner: string, repo: string) {
  return rpc.send(RepoSubjects.accessResolve, { actor: login ? actor(login) : null, owner, repo });
}

/** What `login` gets on owner/repo: its access level, or `none` for NOT_FOUND. */
async function accessOf(login: string | null, owner: string, repo: string): Promise<AccessLevel> {
  try {
    return (await resolve(login, owner, repo)).access;
  } catch (err) {
    if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return 'none';
    throw err;
  }
}

async function scoped(login: string | null, owner: string, repo: string) {
  const r = await resolve(login, owner, repo);
  return { actor: login ? actor(login) : null, repo: r.repo, access: r.access };
}

function storagePath(owner: string, name: string) {
  return path.join(repoRoot, owner.toLowerCase(), `${name.toLowerCase()}.git`);
}

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' });
}


describe('creating repositories', () => {
  it('creates a user repository with an initial commit made by the creator', async () => {
    const repo = await create('alice', { name: 'Hello', description: 'Says hello', auto_init: true });

    expect(repo).toMatchObject({
      name: 'Hello',
      full_name: 'alice/Hello',
      owner: { id: 1, login: 'alice' },
      description: 'Says hello',
      empty: false,
      private: false,
      fork: false,
      mirror: false,
      default_branch: 'main',
      archived: false,
      html_url: `${ROOT_URL}alice/Hello`,
      url: `${ROOT_URL}api/v1/repos/alice/Hello`,
      clone_url: `${ROOT_URL}alice/Hello.git`,
      ssh_url: 'ssh://git@cairn.test:2222/alice/Hello.git',
      permissions: { admin: true, push: true, pull: true },
      has_issues: true,
      has_pull_requests: true,
      has_wiki: false,
      allow_merge_commits: true,
      allow_rebase: true,
      allow_squash_merge: true,
      allow_fast_forward_only_merge: true,
      default_merge_style: 'merge',
      object_format_name: 'sha1',
      topics: [],
    });

    const dir = storagePath('alice', 'hello');
    expect(git(dir, 'log', '--format=%an <%ae>|%cn <%ce>|%s', 'main').trim()).toBe(
      'Alice Liddell <alice@example.com>|Alice Liddell <alice@example.com>|Initial commit',
    );
    expect(git(dir, 'show', 'main:README.md')).toBe('# Hello\n\nSays hello\n');
    expect(git(dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
  });

  it('writes the created event in the same transaction and relays it, and asks hooks-service to copy default hooks', async () => {
    const repo = await create('alice', { name: 'evented' });
    const rows = await sql<{ subject: string; payload: { data: { repository: { fullName: string; json: { id: number } }; sender: { login: string } } } }>(
      `SELECT subject, payload FROM repo.outbox_events WHERE payload->'data'->'repository'->>'id' = $1`,
      [String(repo.id)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].subject).toBe(RepoEvents.repositoryCreated);
    expect(rows[0].payload.data.repository.fullName).toBe('alice/evented');
    expect(rows[0].payload.data.repository.json.id).toBe(repo.id);
    expect(rows[0].payload.data.sender.login).toBe('alice');
    expect(hookCalls.some((c) => c.repository.id === repo.id && c.repository.fullName === 'alice/evented')).toBe(true);

    await repoApp.get(OutboxRelay).flush();
    const [row] = await sql<{ published_at: Date | null }>(
      `SELECT published_at FROM repo.outbox_events WHERE payload->'data'->'repository'->>'id' = $1`,
      [String(repo.id)],
    );
    expect(row.published_at).not.toBeNull();
  });

  it('creates an empty bare repository on the requested branch without auto_init', async () => {
    const repo = await create('alice', { name: 'blank', default_branch: 'trunk', private: true });
    expect(repo).toMatchObject({ empty: true, private: true, default_branch: 'trunk' });
    const dir = storagePath('alice', 'blank');
    expect(git(dir, 'rev-parse', '--is-bare-repository').trim()).toBe('true');
    expect(git(dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/trunk');
    expect(git(dir, 'for-each-ref').trim()).toBe('');
  });

  it('refuses a duplicate name, whatever its case, with 409', async () => {
    await create('alice', { name: 'twice' });
    const err = await failure(create('alice', { name: 'TWICE' }));
    expect(err.code).toBe(ErrorCode.ALREADY_EXISTS);
    expect(err.message).toBe('The repository with the same name already exists.');
    expect(existsSync(storagePath('alice', 'twice'))).toBe(true);
  });

  it.each([
    ['bad name', 'name is invalid'],
    ['a..b', 'name is invalid'],
    ['api', 'name is reserved'],
    ['-', 'name is reserved'],
    ['thing.git', 'name pattern is not allowed'],
  ])('refuses the name %j with 422 and writes nothing', async (name, message) => {
    const err = await failure(create('alice', { name }));
    expect(err.code).toBe(ErrorCode.UNPROCESSABLE);
    expect(err.message).toContain(message);
    const [{ n }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM repo.repositories WHERE name = $1`, [name]);
    expect(n).toBe(0);
  });

  it('refuses an invalid default branch with 422', async () => {
    const err = await failure(create('alice', { name: 'branchy', default_branch: 'a..b' }));
    expect(err.code).toBe(ErrorCode.UNPROCESSABLE);
    expect(existsSync(storagePath('alice', 'branchy'))).toBe(false);
  });

  it('leaves no directory and no event behind when the database refuses the row', async () => {
    await sql(`CREATE FUNCTION repo.refuse_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN IF NEW.lower_name = 'refused' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await sql(`CREATE TRIGGER refuse_for_test BEFORE INSERT ON repo.repositories
               FOR EACH ROW EXECUTE FUNCTION repo.refuse_for_test()`);
    try {
      const err = await failure(create('alice', { name: 'refused', auto_init: true }));
      expect(err.code).toBe(ErrorCode.INTERNAL);
      expect(existsSync(storagePath('alice', 'refused'))).toBe(false);
      const events = await sql(`SELECT 1 FROM repo.outbox_events WHERE payload->'data'->'repository'->>'name' = 'refused'`);
      expect(events).toHaveLength(0);
    } finally {
      await sql(`DROP TRIGGER refuse_for_test ON repo.repositories`);
      await sql(`DROP FUNCTION repo.refuse_for_test()`);
    }
    // The name is free again afterwards.
    await expect(create('alice', { name: 'refused' })).resolves.toMatchObject({ full_name: 'alice/refused' });
  });

  it('lets organization owners and teams that may create repositories create them, and nobody else', async () => {
    await expect(create('dave', { name: 'by-owner' }, 'org', 'acme')).resolves.toMatchObject({
      full_name: 'acme/by-owner',
      owner: { login: 'acme' },
    });
    await expect(create('gina', { name: 'by-team' }, 'org', 'acme')).resolves.toMatchObject({ full_name: 'acme/by-team' });
    await expect(create('root', { name: 'by-admin' }, 'org', 'acme')).resolves.toMatchObject({ full_name: 'acme/by-admin' });

    const denied = await failure(create('hank', { name: 'by-member' }, 'org', 'acme'));
    expect(denied.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(denied.message).toBe('Given user is not allowed to create repository in organization.');
    expect(existsSync(storagePath('acme', 'by-member'))).toBe(false);

    expect((await failure(create('dave', { name: 'x' }, 'org', 'nope'))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(create('dave', { name: 'x' }, 'org', 'alice'))).code).toBe(ErrorCode.NOT_FOUND);
    // A private organization is invisible to outsiders.
    expect((await failure(create('stranger', { name: 'x' }, 'org', 'hush'))).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('lets site administrators create repositories for other users', async () => {
    await expect(create('root', { name: 'gift' }, 'user', 'bob')).resolves.toMatchObject({
      full_name: 'bob/gift',
      owner: { login: 'bob' },
    });
    expect((await failure(create('alice', { name: 'gift2' }, 'user', 'bob'))).code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});

describe('reading, editing and deleting', () => {
  it('answers GET with the caller permissions', async () => {
    await create('alice', { name: 'readable' });
    const asBob = await rpc.send(RepoSubjects.repositoryGet, await scoped('bob', 'alice', 'readable'));
    expect(asBob.permissions).toEqual({ admin: false, push: false, pull: true });
    const anonymous = await rpc.send(RepoSubjects.repositoryGet, await scoped(null, 'alice', 'readable'));
    expect(anonymous.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  it('renames a repository and moves its storage', async () => {
    await create('alice', { name: 'old-name', auto_init: true });
    const head = git(storagePath('alice', 'old-name'), 'rev-parse', 'main').trim();
    const edited = await rpc.send(RepoSubjects.repositoryEdit, {
      ...(await scoped('alice', 'alice', 'old-name')),
      body: { name: 'New-Name' },
    });
    expect(edited).toMatchObject({ name: 'New-Name', full_name: 'alice/New-Name', clone_url: `${ROOT_URL}alice/New-Name.git` });
    expect(existsSync(storagePath('alice', 'old-name'))).toBe(false);
    expect(git(storagePath('alice', 'new-name'), 'rev-parse', 'main').trim()).toBe(head);
    expect(await accessOf('alice', 'alice', 'old-name')).toBe('none');
    expect(await accessOf('alice', 'alice', 'new-name')).toBe('owner');
  });

  it('refuses to rename onto an existing name with 422 and moves nothing', async () => {
    await create('alice', { name: 'first' });
    await create('alice', { name: 'second' });
    const err = await failure(
      rpc.send(RepoSubjects.repositoryEdit, { ...(await scoped('alice', 'alice', 'first')), body: { name: 'Second' } }),
    );
    expect(err.code).toBe(ErrorCode.UNPROCESSABLE);
    expect(err.message).toBe('repo name is already taken [name: Second]');
    expect(existsSync(storagePath('alice', 'first'))).toBe(true);
  });

  it('transfers a repository to an organization its owner may create in, moving its storage; refuses the rest', async () => {
    const transfer = async (login: string, owner: string, repo: string, newOwner: string) =>
      rpc.send(RepoSubjects.repositoryTransfer, { ...(await scoped(login, owner, repo)), body: { new_owner: newOwner } });
    await create('dave', { name: 'moving', auto_init: true });
    const head = git(storagePath('dave', 'moving'), 'rev-parse', 'main').trim();

    // Not its owner; to another user (Gitea's pending transfer); to an organization without the right to create there.
    expect((await failure(transfer('bob', 'dave', 'moving', 'bob'))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(transfer('dave', 'dave', 'moving', 'alice'))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await failure(transfer('dave', 'dave', 'moving', 'nope'))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(transfer('dave', 'dave', 'moving', 'dave'))).code).toBe(ErrorCode.UNPROCESSABLE);
    await create('dave', { name: 'taken' }, 'org', 'acme');
    await create('dave', { name: 'taken' });
    expect((await failure(transfer('dave', 'dave', 'taken', 'acme'))).message).toBe('repository "acme/taken" already exists');
    expect(existsSync(storagePath('dave', 'taken'))).toBe(true);

    const moved = await transfer('dave', 'dave', 'moving', 'acme');
    expect(moved).toMatchObject({ full_name: 'acme/moving', owner: { login: 'acme' } });
    expect(existsSync(storagePath('dave', 'moving'))).toBe(false);
    expect(git(storagePath('acme', 'moving'), 'rev-parse', 'main').trim()).toBe(head);
    expect(await accessOf('dave', 'dave', 'moving')).toBe('none');
    expect(await accessOf('dave', 'acme', 'moving')).toBe('owner');

    // hank is a member of acme without the right to create repositories: he cannot move his own there.
    await create('hank', { name: 'hanks' });
    expect((await failure(transfer('hank', 'hank', 'hanks', 'acme'))).message).toBe('Given user is not allowed to create repository in organization.');
    // A site admin moves any repository to any user.
    await expect(transfer('root', 'hank', 'hanks', 'bob')).resolves.toMatchObject({ full_name: 'bob/hanks' });
  });

  it('edits settings, visibility, archiving and the default branch', async () => {
    await create('alice', { name: 'settings', auto_init: true });
    const dir = storagePath('alice', 'settings');
    git(dir, 'update-ref', 'refs/heads/dev', git(dir, 'rev-parse', 'main').trim());
    const ctx = await scoped('alice', 'alice', 'settings');

    const edited = await rpc.send(RepoSubjects.repositoryEdit, {
      ...ctx,
      body: {
        description: 'new words',
        website: 'https://example.com',
        private: true,
        archived: true,
        default_branch: 'dev',
        allow_squash_merge: false,
        default_merge_style: 'rebase',
      },
    });
    expect(edited).toMatchObject({
      description: 'new words',
      website: 'https://example.com',
      private: true,
      archived: true,
      default_branch: 'dev',
      allow_squash_merge: false,
      allow_rebase: true,
      default_merge_style: 'rebase',
    });
    expect(edited.archived_at).not.toBe('1970-01-01T00:00:00Z');
    expect(git(dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/dev');

    const noPulls = await rpc.send(RepoSubjects.repositoryEdit, { ...ctx, body: { has_pull_requests: false } });
    expect(noPulls).toMatchObject({ has_pull_requests: false, allow_merge_commits: false, allow_rebase: false });

    const missing = await failure(rpc.send(RepoSubjects.repositoryEdit, { ...ctx, body: { default_branch: 'nope' } }));
    expect(missing.code).toBe(ErrorCode.UNPROCESSABLE);
  });

  it('keeps the trust model given on creation, changes it on edit, and refuses unknown ones (422)', async () => {
    await create('alice', { name: 'trusting', trust_model: 'committer' });
    expect((await resolve('alice', 'alice', 'trusting')).repo.trustModel).toBe('committer');
    await create('alice', { name: 'trusting-default' });
    expect((await resolve('alice', 'alice', 'trusting-default')).repo.trustModel).toBe('default');
    const ctx = await scoped('alice', 'alice', 'trusting');
    await rpc.send(RepoSubjects.repositoryEdit, { ...ctx, body: { trust_model: 'collaboratorcommitter' } });
    expect((await resolve('alice', 'alice', 'trusting')).repo.trustModel).toBe('collaboratorcommitter');
    // Invalid on purpose: the service validates the message again.
    const bad = await failure(rpc.send(RepoSubjects.repositoryEdit, { ...ctx, body: { trust_model: 'anyone' } } as never));
    expect(bad.code).toBe(ErrorCode.INVALID_ARGUMENT);
    const badCreate = await failure(create('alice', { name: 'trusting-bad', trust_model: 'everyone' } as never));
    expect(badCreate.code).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it('lets an empty repository take any valid default branch', async () => {
    await create('alice', { name: 'empty-edit' });
    const edited = await rpc.send(RepoSubjects.repositoryEdit, {
      ...(await scoped('alice', 'alice', 'empty-edit')),
      body: { default_branch: 'develop' },
    });
    expect(edited.default_branch).toBe('develop');
  });

  it('needs admin access to edit', async () => {
    await create('alice', { name: 'guarded' });
    await rpc.send(RepoSubjects.collaboratorAdd, {
      ...(await scoped('alice', 'alice', 'guarded')),
      username: 'bob',
      body: { permission: 'write' },
    });
    const err = await failure(
      rpc.send(RepoSubjects.repositoryEdit, { ...(await scoped('bob', 'alice', 'guarded')), body: { description: 'x' } }),
    );
    expect(err.code).toBe(ErrorCode.PERMISSION_DENIED);
  });

  it('deletes a repository, its storage and publishes the deleted event; only owners may', async () => {
    await create('alice', { name: 'doomed', auto_init: true });
    await rpc.send(RepoSubjects.collaboratorAdd, {
      ...(await scoped('alice', 'alice', 'doomed')),
      username: 'bob',
      body: { permission: 'admin' },
    });
    const denied = await failure(rpc.send(RepoSubjects.repositoryDelete, await scoped('bob', 'alice', 'doomed')));
    expect(denied.code).toBe(ErrorCode.PERMISSION_DENIED);

    const ctx = await scoped('alice', 'alice', 'doomed');
    // Its issue tracker goes with it.
    await sql(`INSERT INTO repo.issue_index_counters (repo_id, last_index) VALUES ($1, 1)`, [ctx.repo.id]);
    await sql(`INSERT INTO repo.issues (repo_id, index, title, poster_id) VALUES ($1, 1, 'bug', 1)`, [ctx.repo.id]);
    await rpc.send(RepoSubjects.repositoryDelete, ctx);
    expect(existsSync(storagePath('alice', 'doomed'))).toBe(false);
    expect(await accessOf('alice', 'alice', 'doomed')).toBe('none');
    const events = await sql<{ subject: string }>(
      `SELECT subject FROM repo.outbox_events WHERE payload->'data'->'repository'->>'id' = $1 ORDER BY created_at`,
      [String(ctx.repo.id)],
    );
    expect(events.map((e) => e.subject)).toEqual([RepoEvents.repositoryCreated, RepoEvents.repositoryDeleted]);
    const [{ n }] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM repo.collaborations WHERE repo_id = $1`, [
      ctx.repo.id,
    ]);
    expect(n).toBe(0);
    const [{ issues }] = await sql<{ issues: number }>(
      `SELECT (SELECT count(*) FROM repo.issues WHERE repo_id = $1)::int + (SELECT count(*) FROM repo.issue_index_counters WHERE repo_id = $1)::int AS issues`,
      [ctx.repo.id],
    );
    expect(issues).toBe(0);
  });

  it('lets site administrators delete any repository', async () => {
    await create('carol', { name: 'admin-deletes', private: true });
    await rpc.send(RepoSubjects.repositoryDelete, await scoped('root', 'carol', 'admin-deletes'));
    expect(existsSync(storagePath('carol', 'admin-deletes'))).toBe(false);
  });
});

describe('collaborators', () => {
  it('adds (write by default), updates, lists, checks, reports and removes collaborators', async () => {
    await create('carol', { name: 'team-work', private: true });
    const ctx = await scoped('carol', 'carol', 'team-work');

    await rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'bob', body: {} });
    expect(await accessOf('bob', 'carol', 'team-work')).toBe('write');
    const perm = await rpc.send(RepoSubjects.collaboratorPermission, { ...ctx, username: 'bob' });
    expect(perm).toMatchObject({ permission: 'write', role_name: 'write', user: { login: 'bob' } });

    await rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'BOB', body: { permission: 'admin' } });
    expect(await accessOf('bob', 'carol', 'team-work')).toBe('admin');

    const page = await rpc.send(RepoSubjects.collaboratorList, { ...ctx, query: {} });
    expect(page.total).toBe(1);
    expect(page.items.map((u) => u.login)).toEqual(['bob']);
    expect(await rpc.send(RepoSubjects.collaboratorCheck, { ...ctx, username: 'bob' })).toBe(true);
    expect(await rpc.send(RepoSubjects.collaboratorCheck, { ...ctx, username: 'alice' })).toBe(false);

    await rpc.send(RepoSubjects.collaboratorRemove, { ...ctx, username: 'bob' });
    expect(await rpc.send(RepoSubjects.collaboratorCheck, { ...ctx, username: 'bob' })).toBe(false);
    expect(await accessOf('bob', 'carol', 'team-work')).toBe('none');
  });

  it('refuses the owner (422), organizations (422) and unknown users (404)', async () => {
    await create('carol', { name: 'collab-rules' });
    const ctx = await scoped('carol', 'carol', 'collab-rules');
    expect((await failure(rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'carol', body: {} }))).code).toBe(
      ErrorCode.UNPROCESSABLE,
    );
    expect((await failure(rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'acme', body: {} }))).code).toBe(
      ErrorCode.UNPROCESSABLE,
    );
    expect((await failure(rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'ghost', body: {} }))).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await failure(rpc.send(RepoSubjects.collaboratorCheck, { ...ctx, username: 'ghost' }))).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect(
      // Deliberately invalid: `owner` cannot be given to a collaborator.
      (await failure(rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'bob', body: { permission: 'owner' } } as unknown as AddCollaboratorRequest))).code,
    ).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it('needs repository admin to change collaborators', async () => {
    await create('carol', { name: 'collab-admin' });
    const ctx = await scoped('carol', 'carol', 'collab-admin');
    await rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username: 'bob', body: { permission: 'write' } });
    const asBob = await scoped('bob', 'carol', 'collab-admin');
    expect((await failure(rpc.send(RepoSubjects.collaboratorAdd, { ...asBob, username: 'erin', body: {} }))).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
    expect((await failure(rpc.send(RepoSubjects.collaboratorRemove, { ...asBob, username: 'bob' }))).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
  });

  it('lets users query their own permission, admins anyone, others nobody else', async () => {
    await create('carol', { name: 'perm-query' });
    const asStranger = await scoped('stranger', 'carol', 'perm-query');
    await expect(
      rpc.send(RepoSubjects.collaboratorPermission, { ...asStranger, username: 'stranger' }),
    ).resolves.toMatchObject({ permission: 'read' });
    const err = await failure(rpc.send(RepoSubjects.collaboratorPermission, { ...asStranger, username: 'bob' }));
    expect(err.code).toBe(ErrorCode.PERMISSION_DENIED);
    await expect(
      rpc.send(RepoSubjects.collaboratorPermission, { ...(await scoped('carol', 'carol', 'perm-query')), username: 'root' }),
    ).resolves.toMatchObject({ permission: 'owner', role_name: 'owner' });
  });
});

describe('access resolution', () => {
  beforeAll(async () => {
    await create('alice', { name: 'vault', private: true });
    const ctx = await scoped('alice', 'alice', 'vault');
    for (const [username, permission] of [
      ['bob', 'read'],
      ['carol', 'write'],
      ['erin', 'admin'],
    ] as const) {
      await rpc.send(RepoSubjects.collaboratorAdd, { ...ctx, username, body: { permission } });
    }
    await create('dave', { name: 'internal', private: true }, 'org', 'acme');
    await create('dave', { name: 'granted', private: true }, 'org', 'acme');
    await create('dave', { name: 'open' }, 'org', 'acme');
    const granted = await scoped('dave', 'acme', 'granted');
    await sql(`INSERT INTO repo.team_repos (org_id, team_id, repo_id) VALUES (100, 11, $1)`, [granted.repo.id]);
    await create('root', { name: 'quiet' }, 'org', 'hush');
  });

  it.each([
    ['stranger', 'none'],
    [null, 'none'],
    ['bob', 'read'],
    ['carol', 'write'],
    ['erin', 'admin'],
    ['alice', 'owner'],
    ['root', 'owner'],
  ] as const)('private user repository: %s gets %s', async (login, level) => {
    expect(await accessOf(login, 'alice', 'vault')).toBe(level);
  });

  it.each([
    ['dave', 'owner'], // organization owner
    ['frank', 'read'], // team with all repositories, read
    ['erin', 'none'], // team without this repository
    ['hank', 'none'], // member without a team
    ['stranger', 'none'],
    ['root', 'owner'],
  ] as const)('private organization repository: %s gets %s', async (login, level) => {
    expect(await accessOf(login, 'acme', 'internal')).toBe(level);
  });

  it('grants a team its permission on a repository given to it', async () => {
    expect(await accessOf('erin', 'acme', 'granted')).toBe('write');
    expect(await accessOf('frank', 'acme', 'granted')).toBe('read');
    expect(await accessOf('hank', 'acme', 'granted')).toBe('none');
  });

  it('lets everyone, anonymous included, read public repositories', async () => {
    expect(await accessOf(null, 'acme', 'open')).toBe('read');
    expect(await accessOf('stranger', 'acme', 'open')).toBe('read');
    expect(await accessOf('hank', 'acme', 'open')).toBe('read');
    expect(await accessOf('dave', 'acme', 'open')).toBe('owner');
  });

  it('hides public repositories of a private organization from outsiders', async () => {
    expect(await accessOf(null, 'hush', 'quiet')).toBe('none');
    expect(await accessOf('stranger', 'hush', 'quiet')).toBe('none');
    expect(await accessOf('dave', 'hush', 'quiet')).toBe('read');
  });

  it('resolves names case-insensitively and replies the stored names', async () => {
    const reply = await resolve('alice', 'ALICE', 'VAULT');
    expect(reply.repo).toMatchObject({ ownerName: 'alice', name: 'vault', ownerId: 1, private: true, defaultBranch: 'main' });
    expect((await failure(resolve('alice', 'alice', 'does-not-exist'))).code).toBe(ErrorCode.NOT_FOUND);
  });
});

describe('lists and search', () => {
  beforeAll(async () => {
    await create('frank', { name: 'frank-public', description: 'A Shiny thing' });
    await create('frank', { name: 'frank-private', private: true });
    await create('frank', { name: 'frank-shared', private: true });
    await rpc.send(RepoSubjects.collaboratorAdd, {
      ...(await scoped('frank', 'frank', 'frank-shared')),
      username: 'gina',
      body: { permission: 'read' },
    });
  });

  const list = (login: string | null, owner?: string, ownerKind?: ListRepositoriesRequest['ownerKind'], query: ListQuery = {}) =>
    rpc.send(RepoSubjects.repositoryList, {
      actor: login ? actor(login) : null,
      owner,
      ownerKind,
      query,
    });
  const search = (login: string | null, query: Record<string, unknown>) =>
    rpc.send(RepoSubjects.repositorySearch, { actor: login ? actor(login) : null, query });
  const names = (page: Paginated<RepositoryDto>) => page.items.map((r) => r.full_name).sort();

  it("lists a user's repositories as the caller may see them", async () => {
    expect(names(await list(null, 'frank'))).toEqual(['frank/frank-public']);
    expect(names(await list('gina', 'frank'))).toEqual(['frank/frank-public', 'frank/frank-shared']);
    const own = await list('frank', 'frank');
    expect(names(own)).toEqual(['frank/frank-private', 'frank/frank-public', 'frank/frank-shared']);
    expect(own.total).toBe(3);
    expect(names(await list('root', 'frank'))).toHaveLength(3);
  });

  it('pages with total counts', async () => {
    const first = await list('frank', 'frank', undefined, { page: 1, limit: 2 });
    const second = await list('frank', 'frank', undefined, { page: 2, limit: 2 });
    expect(first.total).toBe(3);
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(1);
  });

  it("lists the caller's own and reachable repositories for GET /user/repos", async () => {
    const gina = names(await list('gina'));
    expect(gina).toContain('frank/frank-shared');
    expect(gina).toContain('acme/by-team'); // public repository of her organization
    expect(gina).not.toContain('frank/frank-public');
    expect(gina).not.toContain('acme/internal'); // private, her team does not reach it
    const erin = names(await list('erin'));
    expect(erin).toContain('acme/granted');
    expect(erin).toContain('alice/vault');
    expect(erin).not.toContain('acme/internal');
    expect((await failure(list(null))).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it("lists an organization's repositories, 404 for users and hidden organizations", async () => {
    expect(names(await list(null, 'acme', 'organization'))).not.toContain('acme/internal');
    expect(names(await list('frank', 'acme', 'organization'))).toContain('acme/internal');
    expect((await failure(list(null, 'frank', 'organization'))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(list('stranger', 'hush', 'organization'))).code).toBe(ErrorCode.NOT_FOUND);
    expect(names(await list('dave', 'hush', 'organization'))).toEqual(['hush/quiet']);
  });

  it("counts an owner's repositories, private ones included, for refusing an owner's deletion", async () => {
    const owned = await list('frank', 'frank');
    expect(owned.total).toBeGreaterThanOrEqual(3);
    expect(await rpc.send(RepoSubjects.repositoryOwnedCount, { ownerId: 6 })).toEqual({ count: owned.total });
    expect(await rpc.send(RepoSubjects.repositoryOwnedCount, { ownerId: 10 })).toEqual({ count: 0 });
    expect((await failure(rpc.send(RepoSubjects.repositoryOwnedCount, { ownerId: 0 }))).code).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  it('searches by keyword, visibility, owner and description', async () => {
    expect(names(await search(null, { q: 'frank' }))).toEqual(['frank/frank-public']);
    expect(names(await search('frank', { q: 'FRANK' }))).toEqual([
      'frank/frank-private', 'frank/frank-public', 'frank/frank-shared',
    ]);
    expect(names(await search('frank', { q: 'frank', private: false }))).toEqual(['frank/frank-public']);
    expect(names(await search('gina', { uid: 6 }))).toEqual(['frank/frank-public', 'frank/frank-shared']);
    expect(names(await search('gina', { uid: 7, exclusive: true })).every((n) => n.startsWith('gina/'))).toBe(true);
    expect(names(await search(null, { q: 'shiny' }))).toEqual([]);
    expect(names(await search(null, { q: 'shiny', includeDesc: true }))).toEqual(['frank/frank-public']);
    expect(names(await search(null, { q: 'quiet' }))).toEqual([]); // hidden organization
    expect(names(await search('frank', { q: 'frank', is_private: true }))).toEqual(['frank/frank-private', 'frank/frank-shared']);
    expect(names(await search('frank', { q: 'frank', is_private: false }))).toEqual(['frank/frank-public']);
    // Nothing here is archived: archived=false is every match, archived=true none.
    expect(names(await search('frank', { q: 'frank', archived: false }))).toEqual(names(await search('frank', { q: 'frank' })));
    expect(names(await search('frank', { q: 'frank', archived: true }))).toEqual([]);
  });

  it('orders search results and refuses unknown modes', async () => {
    const page = await search('frank', { q: 'frank', sort: 'alpha', order: 'desc' });
    expect(page.items.map((r) => r.name)).toEqual(['frank-shared', 'frank-public', 'frank-private']);
    expect((await failure(search(null, { mode: 'weird' }))).message).toBe('Invalid search mode: "weird"');
    expect((await failure(search(null, { sort: 'stars' }))).code).toBe(ErrorCode.UNPROCESSABLE);
    expect((await search(null, { mode: 'fork' })).items).toEqual([]);
  });
});

describe('storage', () => {
  it('keeps every repository inside the storage root', () => {
    const listing = execFileSync('find', [repoRoot, '-maxdepth', '2', '-name', '*.git'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
    expect(listing.length).toBeGreaterThan(0);
    for (const p of listing) expect(p.startsWith(repoRoot + path.sep)).toBe(true);
    expect(readFileSync(path.join(storagePath('alice', 'hello'), 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
  });
});
