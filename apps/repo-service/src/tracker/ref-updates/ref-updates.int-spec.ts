// What moved branches do (`RefUpdates`) with NO merge-check-worker: checks are only queued, reported as a worker would.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PullRequestEvents, PullSubjects, Queues, RepoEvents, RepoSubjects,
  mergeCheckJobId,
  type AccessLevel, type ActorDto, type MergeCheckJobData, type PullRequestDto, type PullRequestEventData, type PushEventData,
  type RepoScopedRequest,
} from '@cairn/contracts';
import { DomainErrorFilter, OutboxRelay, RpcClient, createRpcValidationPipe } from '@cairn/platform';
import { PendingChecks } from './pending-checks.js';
import { PushRecorder } from './push-recorder.service.js';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../../test/support/integration.js';
import { STAND_IN_ACCOUNTS, STAND_IN_ROOT_URL, StandInServicesModule } from '../../../../../test/support/stand-in-services.js';

const ROOT_URL = STAND_IN_ROOT_URL;


let nats: PrivateNats;
let repoRoot: string;
let workRoot: string;
let databaseUrl: string;
let db: ScratchDatabase;
let fakeApp: INestMicroservice;
let repoApp: INestMicroservice;
let rpc: RpcClient;
let queuePrefix: string;
let queue: Queue<MergeCheckJobData>;
let recordPush: (repoId: number, dir: string, updates: { ref: string; old: string; new: string }[]) => Promise<void>;

function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]) {
  return db.sql<R>(text, params);
}

beforeAll(async () => {
  db = await createScratchDatabase('refupd', { services: ['repo'] });
  databaseUrl = db.url;

  nats = await startPrivateNats();
  const natsUrl = nats.url;

  repoRoot = mkdtempSync(path.join(tmpdir(), 'cairn-it-refupd-storage-'));
  workRoot = mkdtempSync(path.join(tmpdir(), 'cairn-it-refupd-work-'));
  queuePrefix = `cairn-it-refupd-${randomUUID().slice(0, 8)}`;
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    REDIS_URL: 'redis://127.0.0.1:6379',
    CAIRN__QUEUE__PREFIX: queuePrefix,
    CAIRN__REPOSITORY__ROOT: repoRoot,
    CAIRN__SERVER__ROOT_URL: ROOT_URL,
    CAIRN__CAIRN__RPC_TIMEOUT: '20s',
    CAIRN__CAIRN__START_REPO_INTERNAL_HTTP: 'false',
    CAIRN__SERVER__START_SSH_SERVER: 'false',
    CAIRN__REPOSITORY_PULL_REQUEST__DELAY_CHECK_FOR_INACTIVE_DAYS: '7',
    CAIRN__MERGE_CHECK__CONCURRENCY: '2',
  });

  const options = (q: string): MicroserviceOptions => ({ transport: Transport.NATS, options: { servers: [natsUrl], queue: q } });
  fakeApp = await NestFactory.createMicroservice<MicroserviceOptions>(StandInServicesModule, { ...options('fake'), logger: false });
  fakeApp.useGlobalFilters(new DomainErrorFilter());
  await fakeApp.listen();

  const repoModule = await import('../../app.module.js');
  repoApp = await NestFactory.createMicroservice<MicroserviceOptions>(repoModule.AppModule, { ...options('repo-service'), logger: ['error'] });
  repoApp.useGlobalPipes(createRpcValidationPipe());
  repoApp.useGlobalFilters(new DomainErrorFilter());
  await repoApp.listen();
  const recorder = repoApp.get(PushRecorder);
  const relay = repoApp.get(OutboxRelay);
  recordPush = async (repoId, dir, updates) => {
    await recorder.record({ repoId, dir, pusherId: 1, via: 'http', journalId: randomUUID() }, updates);
    await relay.flush();
  };

  rpc = new RpcClient(natsUrl, 30_000, 'refupd-it');
  await rpc.connect();
  queue = new Queue<MergeCheckJobData>(Queues.mergeCheck, {
    connection: { url: 'redis://127.0.0.1:6379', maxRetriesPerRequest: null },
    prefix: queuePrefix,
  });
});

afterAll(async () => {
  await queue?.close().catch(() => undefined);
  await rpc?.close().catch(() => undefined);
  await repoApp?.close().catch(() => undefined);
  await fakeApp?.close().catch(() => undefined);
  await nats?.stop();
  await db?.drop();
  for (const dir of [repoRoot, workRoot]) if (dir) rmSync(dir, { recursive: true, force: true });
  if (queuePrefix) {
    const redis = new Redis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${queuePrefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});


const ZERO = '0'.repeat(40);
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bob Builder',
  GIT_AUTHOR_EMAIL: 'bob@example.com',
  GIT_COMMITTER_NAME: 'Bob Builder',
  GIT_COMMITTER_EMAIL: 'bob@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

function actor(login: string): ActorDto {
  const a = STAND_IN_ACCOUNTS.find((x) => x.login === login)!;
  return { id: a.id, login: a.login, isAdmin: false, scopes: ['all'], hasTwoFactor: false };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();
}

interface TestRepo {
  id: number;
  name: string;
  dir: string;
  work: string;
  scope: (login?: string, access?: AccessLevel) => RepoScopedRequest;
}

let seq = 0;
async function newRepo(): Promise<TestRepo> {
  const name = `proj-${++seq}`;
  const dto = await rpc.send(RepoSubjects.repositoryCreate, { actor: actor('alice'), target: 'self', body: { name, auto_init: true } });
  const dir = path.join(repoRoot, 'alice', `${name}.git`);
  const work = path.join(workRoot, name);
  execFileSync('git', ['clone', '-q', dir, work], { env: GIT_ENV });
  const repo = { id: dto.id, ownerId: 1, ownerName: 'alice', name, defaultBranch: 'main', private: false };
  return {
    id: dto.id,
    name,
    dir,
    work,
    scope: (login = 'alice', access: AccessLevel = 'owner') => ({ actor: actor(login), repo, access }),
  };
}

function commit(r: TestRepo, branch: string, files: Record<string, string>, message: string, from = 'main'): void {
  const exists = git(r.work, 'branch', '--list', branch) !== '';
  git(r.work, 'checkout', '-q', ...(exists ? [branch] : ['-b', branch, `origin/${from}`]));
  for (const [f, content] of Object.entries(files)) {
    writeFileSync(path.join(r.work, f), content);
    git(r.work, 'add', '--', f);
  }
  git(r.work, 'commit', '-q', '-m', message);
}

function tip(r: TestRepo, branch: string): string {
  try {
    return execFileSync('git', ['--git-dir', r.dir, 'rev-parse', '--verify', `refs/heads/${branch}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return ZERO;
  }
}

/** Pushes branches of the work clone (`git push`, forced) and records the push as the transport does. */
async function push(r: TestRepo, ...branches: string[]): Promise<void> {
  const before = branches.map((b) => tip(r, b));
  git(r.work, 'push', '-q', '-f', 'origin', ...branches.map((b) => `${b}:${b}`));
  git(r.work, 'fetch', '-q', 'origin');
  const updates = branches.map((b, i) => ({ ref: `refs/heads/${b}`, old: before[i], new: tip(r, b) })).filter((u) => u.old !== u.new);
  await recordPush(r.id, r.dir, updates);
}

function bareGit(r: TestRepo, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', r.dir, ...args], { encoding: 'utf8', env: GIT_ENV }).trim();
}

const parents = (r: TestRepo, rev: string) => bareGit(r, 'rev-list', '--parents', '-n', '1', rev).split(' ').slice(1);

interface PullRow {
  id: number;
  status: string;
  base_sha: string;
  head_sha: string;
  merge_base: string;
  checked_base_sha: string | null;
  checked_head_sha: string | null;
  conflicted_files: string[];
  check_message: string | null;
  merged: boolean;
  merge_commit_sha: string | null;
}

async function pullRow(id: number): Promise<PullRow> {
  const [row] = await sql<PullRow>(`SELECT * FROM repo.pull_requests WHERE id = $1`, [id]);
  return row;
}

async function openPull(r: TestRepo, head: string, title = head): Promise<PullRequestDto> {
  return rpc.send(PullSubjects.create, { ...r.scope('bob', 'write'), body: { head, base: 'main', title } });
}

async function backdate(issuePullIds: number[], days: number): Promise<void> {
  await sql(
    `UPDATE repo.issues SET updated_at = now() - make_interval(days => $2::int)
      WHERE id IN (SELECT issue_id FROM repo.pull_requests WHERE id = ANY($1::int[]))`,
    [issuePullIds, days],
  );
}

/** What a worker would do with a queued check: report the pull request's current commits mergeable, job removed. */
async function reportMergeable(id: number): Promise<void> {
  const row = await pullRow(id);
  await rpc.send(PullSubjects.reportMergeability, {
    pullId: id, status: 'mergeable', conflicted_files: [], base_sha: row.base_sha, head_sha: row.head_sha,
  });
  await (await queue.getJob(mergeCheckJobId(id, row.base_sha, row.head_sha)))?.remove();
}

async function queuedCheck(id: number) {
  const row = await pullRow(id);
  const job = await queue.getJob(mergeCheckJobId(id, row.base_sha, row.head_sha));
  if (!job) return undefined;
  return { state: await job.getState(), priority: job.opts.priority ?? 0 };
}

async function eventsFor(subject: string, pullId: number) {
  return sql<{ payload: { data: PullRequestEventData } }>(
    `SELECT payload FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'pullRequest'->>'id')::int = $2`,
    [subject, pullId],
  );
}


describe('a push to a head branch, with no merge-check-worker running', () => {
  it('moves the head, refs/pull/N/head, writes one synchronized event and queues an urgent check', async () => {
    const r = await newRepo();
    commit(r, 'topic', { 't.txt': '1\n' }, 't1');
    await push(r, 'topic');
    const pr = await openPull(r, 'topic');
    await reportMergeable(pr.id);
    await backdate([pr.id], 30);
    const before = tip(r, 'topic');
    commit(r, 'topic', { 't.txt': '2\n' }, 't2');
    await push(r, 'topic');
    const after = tip(r, 'topic');

    expect(await pullRow(pr.id)).toMatchObject({ head_sha: after, status: 'checking' });
    expect(bareGit(r, 'rev-parse', `refs/pull/${pr.number}/head`)).toBe(after);
    const sync = await eventsFor(PullRequestEvents.synchronized, pr.id);
    expect(sync).toHaveLength(1);
    expect(sync[0].payload.data).toMatchObject({ action: 'synchronized', before, after, sender: { login: 'alice' } });
    expect(sync[0].payload.data.pullRequest).toMatchObject({ head: { sha: after } });
    // Checked at once although the pull request was inactive: a head move is never delayed.
    expect(await queuedCheck(pr.id)).toMatchObject({ priority: 1 });
    const pushes = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'repository'->>'id')::int = $2`,
      [RepoEvents.pushReceived, r.id],
    );
    expect(pushes[0].n).toBe(2); // one event per push
  });

  it("a fork's branch: the pull request in the base repository follows (commit copied there, synchronized there)", async () => {
    const r = await newRepo();
    const fork = await rpc.send(RepoSubjects.repositoryFork, { ...r.scope('bob', 'read'), body: {} });
    const f: TestRepo = { ...r, id: fork.id, dir: path.join(repoRoot, 'bob', `${r.name}.git`), work: path.join(workRoot, `bob-${r.name}`) };
    execFileSync('git', ['clone', '-q', f.dir, f.work], { env: GIT_ENV });
    commit(f, 'topic', { 'f.txt': '1\n' }, 'f1');
    await push(f, 'topic');
    const pr = await rpc.send(PullSubjects.create, { ...r.scope('bob', 'read'), body: { head: 'bob:topic', base: 'main', title: 'from the fork' } });
    expect(pr.head).toMatchObject({ label: 'topic', ref: 'topic', sha: tip(f, 'topic'), repo_id: fork.id });
    expect(bareGit(r, 'rev-parse', `refs/pull/${pr.number}/head`)).toBe(tip(f, 'topic'));
    await reportMergeable(pr.id);

    const before = tip(f, 'topic');
    commit(f, 'topic', { 'f.txt': '2\n' }, 'f2');
    await push(f, 'topic');
    const after = tip(f, 'topic');
    expect(await pullRow(pr.id)).toMatchObject({ head_sha: after, status: 'checking' });
    expect(bareGit(r, 'cat-file', '-t', after)).toBe('commit');
    expect(bareGit(r, 'rev-parse', `refs/pull/${pr.number}/head`)).toBe(after);
    const sync = await eventsFor(PullRequestEvents.synchronized, pr.id);
    expect(sync).toHaveLength(1);
    expect(sync[0].payload.data).toMatchObject({ action: 'synchronized', before, after, repository: { id: r.id } });
    expect(sync[0].payload.data.pullRequest).toMatchObject({ head: { sha: after, repo_id: fork.id }, base: { repo_id: r.id } });
    expect(await queuedCheck(pr.id)).toMatchObject({ priority: 1 });

    // A branch of the base repository with the same name is another head: pushing it moves nothing.
    commit(r, 'topic', { 'own.txt': 'x\n' }, 'own');
    await push(r, 'topic');
    expect((await pullRow(pr.id)).head_sha).toBe(after);
  });

  it('never moves a pull request back: a recording of an older move is passed over', async () => {
    const r = await newRepo();
    commit(r, 'late', { 'l.txt': '1\n' }, 'l1');
    await push(r, 'late');
    const olderHead = tip(r, 'late');
    commit(r, 'late', { 'l.txt': '2\n' }, 'l2');
    await push(r, 'late');
    const olderBase = tip(r, 'main');
    commit(r, 'main', { 'm.txt': '1\n' }, 'm1');
    await push(r, 'main');
    const pr = await openPull(r, 'late');
    await reportMergeable(pr.id);
    const checked = await pullRow(pr.id);
    expect([checked.base_sha, checked.head_sha]).toEqual([tip(r, 'main'), tip(r, 'late')]);

    // The first moves, recorded after the newer ones (as a slow recording of a concurrent push would be).
    await recordPush(r.id, r.dir, [
      { ref: 'refs/heads/late', old: ZERO, new: olderHead },
      { ref: 'refs/heads/main', old: ZERO, new: olderBase },
    ]);
    expect(await pullRow(pr.id)).toEqual(checked);
    expect(await eventsFor(PullRequestEvents.synchronized, pr.id)).toHaveLength(0);
    expect(await queuedCheck(pr.id)).toBeUndefined();
  });

  it('records nothing for a repository deleted since, without failing', async () => {
    const r = await newRepo();
    commit(r, 'gone', { 'g.txt': '1\n' }, 'g1');
    await push(r, 'gone');
    const sha = tip(r, 'gone');
    await rpc.send(RepoSubjects.repositoryDelete, r.scope());
    await recordPush(r.id, r.dir, [{ ref: 'refs/heads/gone', old: ZERO, new: sha }]);
    const pushes = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'repository'->>'id')::int = $2`,
      [RepoEvents.pushReceived, r.id],
    );
    expect(pushes[0].n).toBe(1);
  });
});

describe('a push to a base branch (DELAY_CHECK_FOR_INACTIVE_DAYS = 7)', () => {
  it('marks every pull request into it checking, queues only the active ones (recent first), the others wait for a view', async () => {
    const r = await newRepo();
    const N = 5;
    const K = 2;
    const pulls: PullRequestDto[] = [];
    for (let i = 0; i < N; i++) {
      commit(r, `f${i}`, { [`f${i}.txt`]: `${i}\n` }, `f${i}`);
      await push(r, `f${i}`);
      pulls.push(await openPull(r, `f${i}`));
    }
    for (const p of pulls) await reportMergeable(p.id);
    const active = pulls.slice(0, K).map((p) => p.id);
    const inactive = pulls.slice(K).map((p) => p.id);
    await backdate(inactive, 30);
    await backdate([active[0]], 2);

    commit(r, 'main', { 'base.txt': 'moved\n' }, 'move the base');
    await push(r, 'main');
    const newBase = tip(r, 'main');
    for (const id of pulls.map((p) => p.id)) expect(await pullRow(id)).toMatchObject({ status: 'checking', base_sha: newBase });
    const [older, newer] = [await queuedCheck(active[0]), await queuedCheck(active[1])];
    expect(older?.priority).toBeGreaterThan(newer!.priority);
    expect(newer!.priority).toBeGreaterThan(1);
    for (const id of inactive) expect(await queuedCheck(id)).toBeUndefined();

    // A view queues a delayed check at once, urgently.
    const viewed = pulls[K];
    await rpc.send(PullSubjects.get, { ...r.scope(), index: viewed.number, view: true });
    expect(await queuedCheck(viewed.id)).toMatchObject({ priority: 1 });

    // Checks lost between a commit and their queueing (a crash) come back at start, for the active ones only.
    for (const id of [...active, viewed.id]) await (await queue.getJob(mergeCheckJobId(id, newBase, (await pullRow(id)).head_sha)))?.remove();
    await repoApp.get(PendingChecks).requeue();
    for (const id of active) expect(await queuedCheck(id)).toBeDefined();
    for (const id of inactive) expect(await queuedCheck(id)).toBeUndefined();
  });
});

describe("repo-service's own branch moves", () => {
  async function twoPulls() {
    const r = await newRepo();
    commit(r, 'topic', { 'one.txt': '1\n' }, 'first change');
    await push(r, 'topic');
    commit(r, 'other', { 'other.txt': 'o\n' }, 'other change');
    await push(r, 'other');
    const pr = await openPull(r, 'topic', 'Topic work');
    const other = await openPull(r, 'other', 'Other work');
    await reportMergeable(pr.id);
    await reportMergeable(other.id);
    return { r, pr, other };
  }

  it('a merge moves the base of the other pull requests into the branch and queues their checks', async () => {
    const { r, pr, other } = await twoPulls();
    await rpc.send(PullSubjects.merge, { ...r.scope('alice', 'owner'), index: pr.number, body: { Do: 'merge' } });
    const main = tip(r, 'main');
    expect(await pullRow(pr.id)).toMatchObject({ merged: true, merge_commit_sha: main });
    expect(await pullRow(other.id)).toMatchObject({ status: 'checking', base_sha: main });
    expect(await queuedCheck(other.id)).toBeDefined();
    const pushes = await sql<{ payload: { data: PushEventData } }>(
      `SELECT payload FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'repository'->>'id')::int = $2 ORDER BY created_at DESC LIMIT 1`,
      [RepoEvents.pushReceived, r.id],
    );
    expect(pushes[0].payload.data).toMatchObject({ pusher: { login: 'alice' }, updates: [{ ref: 'refs/heads/main', new: main }] });
  });

  it('a branch update moves the head like a push: synchronized by the user who updated, refs/pull/N/head, an urgent check', async () => {
    const { r, pr } = await twoPulls();
    commit(r, 'main', { 'base.txt': 'b\n' }, 'base moves');
    await push(r, 'main');
    await rpc.send(PullSubjects.update, { ...r.scope('alice', 'owner'), index: pr.number });
    const head = tip(r, 'topic');
    expect(parents(r, head)).toContain(tip(r, 'main'));
    expect(await pullRow(pr.id)).toMatchObject({ head_sha: head, base_sha: tip(r, 'main'), merge_base: tip(r, 'main'), status: 'checking' });
    expect(bareGit(r, 'rev-parse', `refs/pull/${pr.number}/head`)).toBe(head);
    const sync = await eventsFor(PullRequestEvents.synchronized, pr.id);
    expect(sync).toHaveLength(1);
    expect(sync[0].payload.data).toMatchObject({ after: head, sender: { login: 'alice' } });
    expect(await queuedCheck(pr.id)).toMatchObject({ priority: 1 });
  });
});
