// Issues, comments and locking on repo-service's real module graph, private NATS, own database, git and Redis.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode, HooksSubjects, IdentitySubjects, IssueEvents, IssueSubjects, LabelSubjects, MilestoneSubjects, PullSubjects, RepoSubjects,
  type AccessLevel, type ActorDto, type UserDto,
} from '@cairn/contracts';
import { DomainErrorFilter, RpcClient, createRpcValidationPipe } from '@cairn/platform';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../../test/support/integration.js';

const ROOT_URL = 'http://cairn.test:3000/';


const accounts = [
  { id: 1, login: 'alice' },
  { id: 2, login: 'bob' },
  { id: 3, login: 'carol' },
  { id: 9, login: 'root' },
];

function userDto(a: { id: number; login: string }): UserDto {
  return {
    id: a.id, login: a.login, login_name: '', source_id: 0, full_name: '', email: `${a.login}@example.com`,
    avatar_url: '', html_url: `${ROOT_URL}${a.login}`, language: '', is_admin: a.login === 'root',
    last_login: '1970-01-01T00:00:00Z', created: '2024-01-01T00:00:00Z', restricted: false, active: true,
    prohibit_login: false, location: '', website: '', description: '', visibility: 'public', followers_count: 0,
    following_count: 0, starred_repos_count: 0, username: a.login,
  };
}

class FakeServices {
  owner(req: { name: string }) {
    const a = accounts.find((x) => x.login === req.name.toLowerCase());
    if (!a) throw DomainError.notFound('no such owner');
    return { id: a.id, login: a.login, kind: 'user', visibility: 'public', user: userDto(a) };
  }
  lookup(req: { ids?: number[]; emails?: string[]; logins?: string[] }) {
    const users = accounts.filter((a) =>
      req.ids?.includes(a.id) || req.emails?.includes(`${a.login}@example.com`) || req.logins?.some((l) => l.toLowerCase() === a.login));
    const byEmail = Object.fromEntries(users.map((u) => [`${u.login}@example.com`, u.id]));
    return { users: users.map(userDto), byEmail, adminIds: [] };
  }
  membership() {
    return { isMember: false, isOwner: false, teams: [] };
  }
  hooks() {
    return { copied: 0 };
  }
}
const patterns: Record<string, keyof FakeServices> = {
  [IdentitySubjects.ownerResolve]: 'owner',
  [IdentitySubjects.userLookup]: 'lookup',
  [IdentitySubjects.orgMembership]: 'membership',
  [HooksSubjects.repositoryInit]: 'hooks',
};
for (const [subject, method] of Object.entries(patterns)) {
  const proto = FakeServices.prototype;
  MessagePattern(subject)(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
}
Controller()(FakeServices);
class FakeModule {}
Module({ controllers: [FakeServices] })(FakeModule);


let nats: PrivateNats;
let repoRoot: string;
let databaseUrl: string;
let db: ScratchDatabase;
let fakeApp: INestMicroservice;
let repoApp: INestMicroservice;
let rpc: RpcClient;
let queuePrefix: string;

function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]) {
  return db.sql<R>(text, params);
}

beforeAll(async () => {
  db = await createScratchDatabase('issues', { services: ['repo'] });
  databaseUrl = db.url;

  nats = await startPrivateNats();
  const natsUrl = nats.url;

  repoRoot = mkdtempSync(path.join(tmpdir(), 'cairn-it-issues-storage-'));
  queuePrefix = `cairn-it-issues-${randomUUID().slice(0, 8)}`;
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    REDIS_URL: 'redis://127.0.0.1:6379',
    CAIRN__QUEUE__PREFIX: queuePrefix,
    CAIRN__REPOSITORY__ROOT: repoRoot,
    CAIRN__SERVER__ROOT_URL: ROOT_URL,
    CAIRN__CAIRN__RPC_TIMEOUT: '10s',
    CAIRN__CAIRN__START_REPO_INTERNAL_HTTP: 'false',
    CAIRN__SERVER__START_SSH_SERVER: 'false',
    CAIRN__REPOSITORY_ISSUE__LOCK_REASONS: 'Too heated,Off-topic,Resolved,Spam,Duplicate',
  });

  const options = (queue: string): MicroserviceOptions => ({ transport: Transport.NATS, options: { servers: [natsUrl], queue } });
  fakeApp = await NestFactory.createMicroservice<MicroserviceOptions>(FakeModule, { ...options('fake'), logger: false });
  fakeApp.useGlobalFilters(new DomainErrorFilter());
  await fakeApp.listen();

  const { AppModule } = await import('../../app.module.js');
  repoApp = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, { ...options('repo-service'), logger: ['error'] });
  repoApp.useGlobalPipes(createRpcValidationPipe());
  repoApp.useGlobalFilters(new DomainErrorFilter());
  await repoApp.listen();

  rpc = new RpcClient(natsUrl, 20_000, 'issues-it');
  await rpc.connect();
});

afterAll(async () => {
  await rpc?.close().catch(() => undefined);
  await repoApp?.close().catch(() => undefined);
  await fakeApp?.close().catch(() => undefined);
  await nats?.stop();
  await db?.drop();
  if (repoRoot) rmSync(repoRoot, { recursive: true, force: true });
  if (queuePrefix) {
    const redis = new Redis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${queuePrefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});


function actor(login: string): ActorDto {
  const a = accounts.find((x) => x.login === login)!;
  return { id: a.id, login: a.login, isAdmin: login === 'root', scopes: ['all'], hasTwoFactor: false };
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

let repoSeq = 0;
/** A fresh repository of alice's with an initial commit; returns a scope builder (`as(login, access)`). */
async function newRepo() {
  const dto = await rpc.send(RepoSubjects.repositoryCreate, {
    actor: actor('alice'),
    target: 'self',
    body: { name: `tracker-${++repoSeq}`, auto_init: true },
  });
  const repo = { id: dto.id, ownerId: 1, ownerName: 'alice', name: dto.name, defaultBranch: dto.default_branch, private: false };
  return {
    repo,
    as: (login: string | null, access: AccessLevel) => ({ actor: login ? actor(login) : null, repo, access }),
  };
}


describe('issues', () => {
  it('creates an issue with Gitea\'s JSON and an `opened` event in the outbox', async () => {
    const { as } = await newRepo();
    const issue = await rpc.send(IssueSubjects.create, { ...as('carol', 'read'), body: { title: ' Broken ', body: 'It breaks' } });
    expect(issue).toMatchObject({
      number: 1,
      title: 'Broken',
      body: 'It breaks',
      state: 'open',
      user: { id: 3, login: 'carol' },
      is_locked: false,
      locked: false,
      active_lock_reason: null,
      comments: 0,
      pull_request: null,
      closed_at: null,
      repository: { owner: 'alice', full_name: `alice/tracker-${repoSeq}` },
      html_url: `${ROOT_URL}alice/tracker-${repoSeq}/issues/1`,
      url: `${ROOT_URL}api/v1/repos/alice/tracker-${repoSeq}/issues/1`,
    });
    const rows = await sql<{ payload: { data: { action: string; issue: { id: number }; sender: { login: string }; repository: { fullName: string } } } }>(
      `SELECT payload FROM repo.outbox_events WHERE subject = $1`,
      [IssueEvents.opened],
    );
    const mine = rows.find((r) => r.payload.data.issue.id === issue.id)!;
    expect(mine.payload.data).toMatchObject({ action: 'opened', sender: { login: 'carol' }, repository: { fullName: `alice/tracker-${repoSeq}` } });
  });

  it('refuses anonymous callers', async () => {
    const { as } = await newRepo();
    const err = await failure(rpc.send(IssueSubjects.create, { ...as(null, 'read'), body: { title: 'x' } }));
    expect(err.code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('numbers issues and pull requests from one sequence, without gaps or duplicates under concurrency', async () => {
    const { as, repo } = await newRepo();
    const dir = path.join(repoRoot, 'alice', `${repo.name}.git`);
    // Twelve branches with one commit each, for the pull requests.
    const { execFileSync } = await import('node:child_process');
    const main = execFileSync('git', ['--git-dir', dir, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim();
    const tree = execFileSync('git', ['--git-dir', dir, 'rev-parse', `${main}^{tree}`], { encoding: 'utf8' }).trim();
    for (let i = 0; i < 12; i++) {
      const c = execFileSync('git', ['--git-dir', dir, 'commit-tree', tree, '-p', main, '-m', `b${i}`], {
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' },
      }).trim();
      execFileSync('git', ['--git-dir', dir, 'update-ref', `refs/heads/b${i}`, c]);
    }
    const calls: Promise<{ number: number }>[] = [];
    for (let i = 0; i < 24; i++) {
      calls.push(
        i % 2 === 0
          ? rpc.send(IssueSubjects.create, { ...as('bob', 'write'), body: { title: `issue ${i}` } })
          : rpc.send(PullSubjects.create, {
              ...as('bob', 'write'),
              body: { head: `b${(i - 1) / 2}`, base: 'main', title: `pull ${i}` },
            }),
      );
    }
    const numbers = (await Promise.all(calls)).map((x) => x.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const all = await rpc.send(IssueSubjects.list, { ...as('bob', 'write'), query: { state: 'all', limit: 50 } });
    expect(all.total).toBe(24);
    const pulls = await rpc.send(IssueSubjects.list, { ...as('bob', 'write'), query: { type: 'pulls', limit: 50 } });
    expect(pulls.total).toBe(12);
    expect(pulls.items.every((i) => i.pull_request !== null)).toBe(true);
    const [counts] = await sql<{ num_issues: number; num_pulls: number }>(
      `SELECT num_issues, num_pulls FROM repo.repositories WHERE id = $1`,
      [repo.id],
    );
    expect(counts).toEqual({ num_issues: 12, num_pulls: 12 });
  });

  it('lists with state, type and keyword filters', async () => {
    const { as } = await newRepo();
    const w = as('alice', 'owner');
    await rpc.send(IssueSubjects.create, { ...w, body: { title: 'alpha bug' } });
    await rpc.send(IssueSubjects.create, { ...w, body: { title: 'beta', body: 'has a BUG inside' } });
    await rpc.send(IssueSubjects.create, { ...w, body: { title: 'gamma', closed: true } });
    const open = await rpc.send(IssueSubjects.list, { ...w, query: {} });
    expect(open.items.map((i) => i.title)).toEqual(['beta', 'alpha bug']);
    const closed = await rpc.send(IssueSubjects.list, { ...w, query: { state: 'closed' } });
    expect(closed.items.map((i) => i.title)).toEqual(['gamma']);
    const bug = await rpc.send(IssueSubjects.list, { ...w, query: { q: 'bug', state: 'all' } });
    expect(bug.total).toBe(2);
    const page = await rpc.send(IssueSubjects.list, { ...w, query: { state: 'all', limit: 1, page: 2 } });
    expect(page).toMatchObject({ total: 3, items: [{ title: 'beta' }] });
  });

  it('lets the author and writers edit, not other readers; closing and reopening add timeline entries', async () => {
    const { as } = await newRepo();
    const issue = await rpc.send(IssueSubjects.create, { ...as('carol', 'read'), body: { title: 'Mine' } });
    const edited = await rpc.send(IssueSubjects.edit, { ...as('carol', 'read'), index: issue.number, body: { title: 'Mine, edited' } });
    expect(edited.title).toBe('Mine, edited');
    const err = await failure(rpc.send(IssueSubjects.edit, { ...as('bob', 'read'), index: issue.number, body: { title: 'x' } }));
    expect(err.code).toBe(ErrorCode.PERMISSION_DENIED);
    const closed = await rpc.send(IssueSubjects.edit, { ...as('bob', 'write'), index: issue.number, body: { state: 'closed' } });
    expect(closed.state).toBe('closed');
    expect(closed.closed_at).not.toBeNull();
    await rpc.send(IssueSubjects.edit, { ...as('bob', 'write'), index: issue.number, body: { state: 'closed' } });
    const reopened = await rpc.send(IssueSubjects.edit, { ...as('carol', 'read'), index: issue.number, body: { state: 'open' } });
    expect(reopened).toMatchObject({ state: 'open', closed_at: null });
    const timeline = await rpc.send(IssueSubjects.timeline, { ...as(null, 'read'), index: issue.number });
    expect(timeline.items.map((t) => [t.type, t.user.login])).toEqual([['change_title', 'carol'], ['close', 'bob'], ['reopen', 'carol']]);
    expect(timeline.items[0]).toMatchObject({ old_title: 'Mine', new_title: 'Mine, edited' });
  });

  it('records each assignment and unassignment as an `assignees` timeline entry naming the user', async () => {
    const { as } = await newRepo();
    const owner = as('alice', 'owner');
    const issue = await rpc.send(IssueSubjects.create, { ...owner, body: { title: 'Assign me' } });
    await rpc.send(IssueSubjects.edit, { ...owner, index: issue.number, body: { assignees: ['alice'] } });
    await rpc.send(IssueSubjects.edit, { ...owner, index: issue.number, body: { assignees: ['alice'] } }); // no change, no entry
    await rpc.send(IssueSubjects.edit, { ...owner, index: issue.number, body: { assignees: [] } });
    const timeline = await rpc.send(IssueSubjects.timeline, { ...as(null, 'read'), index: issue.number });
    expect(timeline.items.map((t) => [t.type, t.user.login, t.assignee?.login, t.removed_assignee])).toEqual([
      ['assignees', 'alice', 'alice', false],
      ['assignees', 'alice', 'alice', true],
    ]);
    // Events are not comments: the issue's comment count and comment list stay empty.
    expect((await rpc.send(IssueSubjects.get, { ...owner, index: issue.number })).comments).toBe(0);
    expect((await rpc.send(IssueSubjects.commentList, { ...owner, index: issue.number })).items).toEqual([]);
  });

  it('records label and milestone changes as `label` and `milestone` timeline entries', async () => {
    const { as } = await newRepo();
    const owner = as('alice', 'owner');
    const bug = await rpc.send(LabelSubjects.create, { ...owner, body: { name: 'bug', color: '#ee0701' } });
    const docs = await rpc.send(LabelSubjects.create, { ...owner, body: { name: 'docs', color: '#0075ca' } });
    const v1 = await rpc.send(MilestoneSubjects.create, { ...owner, body: { title: 'v1' } });
    const v2 = await rpc.send(MilestoneSubjects.create, { ...owner, body: { title: 'v2' } });
    const issue = await rpc.send(IssueSubjects.create, { ...owner, body: { title: 'Labelled' } });
    const index = issue.number;
    await rpc.send(LabelSubjects.issueAdd, { ...owner, index, body: { labels: [bug.id] } });
    await rpc.send(LabelSubjects.issueReplace, { ...owner, index, body: { labels: [docs.id] } });
    await rpc.send(IssueSubjects.edit, { ...owner, index, body: { milestone: v1.id } });
    await rpc.send(IssueSubjects.edit, { ...owner, index, body: { milestone: v2.id } });
    await rpc.send(IssueSubjects.edit, { ...owner, index, body: { milestone: 0 } });
    await rpc.send(LabelSubjects.delete, { ...owner, id: docs.id });
    const timeline = await rpc.send(IssueSubjects.timeline, { ...as(null, 'read'), index });
    expect(timeline.items.map((t) => [t.type, t.body, t.label?.name ?? t.label, t.milestone?.title ?? t.milestone, t.old_milestone?.title ?? t.old_milestone]))
      .toEqual([
        ['label', '1', 'bug', undefined, undefined],
        ['label', '', 'bug', undefined, undefined],
        ['label', '1', null, undefined, undefined], // docs, deleted since
        ['milestone', '', undefined, 'v1', null],
        ['milestone', '', undefined, 'v2', 'v1'],
        ['milestone', '', undefined, null, 'v2'],
      ]);
  });

  it('answers NOT_FOUND for an unknown number', async () => {
    const { as } = await newRepo();
    const err = await failure(rpc.send(IssueSubjects.get, { ...as(null, 'read'), index: 99 }));
    expect(err.code).toBe(ErrorCode.NOT_FOUND);
  });
});

describe('locking', () => {
  it('locks and unlocks idempotently; each change adds one timeline entry credited to the caller', async () => {
    const { as } = await newRepo();
    const issue = await rpc.send(IssueSubjects.create, { ...as('carol', 'read'), body: { title: 'Heated' } });
    const bob = as('bob', 'write');
    await rpc.send(IssueSubjects.lock, { ...bob, index: issue.number, body: { lock_reason: 'Too Heated' } });
    await rpc.send(IssueSubjects.lock, { ...bob, index: issue.number, body: { lock_reason: 'spam' } });
    const locked = await rpc.send(IssueSubjects.get, { ...as(null, 'read'), index: issue.number });
    expect(locked).toMatchObject({ is_locked: true, locked: true, active_lock_reason: 'too heated' });

    await rpc.send(IssueSubjects.unlock, { ...bob, index: issue.number });
    await rpc.send(IssueSubjects.unlock, { ...bob, index: issue.number });
    const unlocked = await rpc.send(IssueSubjects.get, { ...as(null, 'read'), index: issue.number });
    expect(unlocked).toMatchObject({ is_locked: false, locked: false, active_lock_reason: null });

    const timeline = await rpc.send(IssueSubjects.timeline, { ...bob, index: issue.number });
    // Credited to bob (the caller), not alice (the repository owner, whom Gitea credits).
    expect(timeline.items.map((t) => [t.type, t.user.login, t.body])).toEqual([
      ['lock', 'bob', 'too heated'],
      ['unlock', 'bob', ''],
    ]);
    const events = await sql<{ subject: string }>(
      `SELECT subject FROM repo.outbox_events WHERE subject IN ($1, $2) AND (payload->'data'->'issue'->>'id')::int = $3 ORDER BY created_at`,
      [IssueEvents.locked, IssueEvents.unlocked, issue.id],
    );
    expect(events.map((e) => e.subject)).toEqual([IssueEvents.locked, IssueEvents.unlocked]);
  });

  it('accepts no body, a null body and a blank reason, and the instance\'s own reasons', async () => {
    const { as } = await newRepo();
    const w = as('alice', 'owner');
    for (const body of [undefined, null, { lock_reason: '' }, { lock_reason: null }, { lock_reason: 'DUPLICATE' }]) {
      const issue = await rpc.send(IssueSubjects.create, { ...w, body: { title: 't' } });
      await rpc.send(IssueSubjects.lock, { ...w, index: issue.number, ...(body === undefined ? {} : { body }) });
      const got = await rpc.send(IssueSubjects.get, { ...w, index: issue.number });
      expect(got.is_locked).toBe(true);
      expect(got.active_lock_reason).toBe(body && body.lock_reason === 'DUPLICATE' ? 'Duplicate' : null);
    }
  });

  it('refuses unknown reasons with UNPROCESSABLE listing the accepted ones, readers with PERMISSION_DENIED, unknown issues with NOT_FOUND', async () => {
    const { as } = await newRepo();
    const issue = await rpc.send(IssueSubjects.create, { ...as('carol', 'read'), body: { title: 't' } });
    const bad = await failure(rpc.send(IssueSubjects.lock, { ...as('bob', 'write'), index: issue.number, body: { lock_reason: 'boring' } }));
    expect(bad.code).toBe(ErrorCode.UNPROCESSABLE);
    expect(bad.details).toEqual(['off-topic', 'too heated', 'resolved', 'spam', 'Duplicate']);
    const reader = await failure(rpc.send(IssueSubjects.lock, { ...as('carol', 'read'), index: issue.number }));
    expect(reader.code).toBe(ErrorCode.PERMISSION_DENIED);
    const missing = await failure(rpc.send(IssueSubjects.unlock, { ...as('bob', 'write'), index: 4242 }));
    expect(missing.code).toBe(ErrorCode.NOT_FOUND);
    const still = await rpc.send(IssueSubjects.get, { ...as(null, 'read'), index: issue.number });
    expect(still.is_locked).toBe(false);
  });

  it('refuses comments from readers while locked (writers and site admins may), and accepts them again after unlocking', async () => {
    const { as } = await newRepo();
    const issue = await rpc.send(IssueSubjects.create, { ...as('carol', 'read'), body: { title: 't' } });
    await rpc.send(IssueSubjects.lock, { ...as('bob', 'write'), index: issue.number });
    const err = await failure(rpc.send(IssueSubjects.commentCreate, { ...as('carol', 'read'), index: issue.number, body: { body: 'hi' } }));
    expect(err.code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(err.message).toMatch(/locked/);
    await rpc.send(IssueSubjects.commentCreate, { ...as('bob', 'write'), index: issue.number, body: { body: 'writer' } });
    await rpc.send(IssueSubjects.commentCreate, { ...as('root', 'read'), index: issue.number, body: { body: 'admin' } });
    await rpc.send(IssueSubjects.unlock, { ...as('bob', 'write'), index: issue.number });
    await rpc.send(IssueSubjects.commentCreate, { ...as('carol', 'read'), index: issue.number, body: { body: 'reader' } });
    const comments = await rpc.send(IssueSubjects.commentList, { ...as(null, 'read'), index: issue.number });
    expect(comments.items.map((c) => [c.user.login, c.body])).toEqual([['bob', 'writer'], ['root', 'admin'], ['carol', 'reader']]);
    const got = await rpc.send(IssueSubjects.get, { ...as(null, 'read'), index: issue.number });
    expect(got.comments).toBe(3);
  });
});

describe('comments', () => {
  it('lets authors and writers edit and delete, refuses other readers, and scopes ids by repository', async () => {
    const a = await newRepo();
    const b = await newRepo();
    const issue = await rpc.send(IssueSubjects.create, { ...a.as('carol', 'read'), body: { title: 't' } });
    const c = await rpc.send(IssueSubjects.commentCreate, { ...a.as('carol', 'read'), index: issue.number, body: { body: 'first' } });
    expect(c).toMatchObject({ body: 'first', user: { login: 'carol' }, issue_url: issue.html_url, pull_request_url: '' });
    const edited = await rpc.send(IssueSubjects.commentEdit, { ...a.as('carol', 'read'), commentId: c.id, body: { body: 'second' } });
    expect(edited.body).toBe('second');
    const denied = await failure(rpc.send(IssueSubjects.commentEdit, { ...a.as('bob', 'read'), commentId: c.id, body: { body: 'x' } }));
    expect(denied.code).toBe(ErrorCode.PERMISSION_DENIED);
    const elsewhere = await failure(rpc.send(IssueSubjects.commentGet, { ...b.as('alice', 'owner'), commentId: c.id }));
    expect(elsewhere.code).toBe(ErrorCode.NOT_FOUND);
    await rpc.send(IssueSubjects.commentDelete, { ...a.as('bob', 'write'), commentId: c.id });
    const gone = await failure(rpc.send(IssueSubjects.commentGet, { ...a.as('alice', 'owner'), commentId: c.id }));
    expect(gone.code).toBe(ErrorCode.NOT_FOUND);
    const after = await rpc.send(IssueSubjects.get, { ...a.as(null, 'read'), index: issue.number });
    expect(after.comments).toBe(0);
  });
});
