// Pull requests and mergeability: repo-service's real module graph and the real worker module on a private NATS,
// an own database and Redis prefix, and real git; identity-service and hooks-service are small stand-in responders.
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
  DomainError, ErrorCode, PullRequestEvents, PullSubjects, Queues, RepoEvents,
  RepoSubjects, mergeCheckJobId,
  type AccessLevel, type ActorDto, type MergeCheckJobData, type MergePullBody, type PullRequestDto,
  type PullRequestEventData, type RepoScopedRequest,
} from '@cairn/contracts';
import { COMMON_SETTINGS, DomainErrorFilter, OutboxRelay, RpcClient, createRpcValidationPipe } from '@cairn/platform';
import { WORKER_SETTINGS, type WorkerSettings } from '../config/worker-settings.js';
import { runCheck } from './git-check.js';
import { GitChecker } from './git-checker.js';
import { MergeCheckService } from './merge-check.service.js';
import { RepositoryPaths } from './repository-paths.js';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../test/support/integration.js';
import { STAND_IN_ACCOUNTS, STAND_IN_ROOT_URL, StandInServicesModule } from '../../../../test/support/stand-in-services.js';

const ROOT_URL = STAND_IN_ROOT_URL;


let nats: PrivateNats;
let repoRoot: string;
let workRoot: string;
let databaseUrl: string;
let db: ScratchDatabase;
let fakeApp: INestMicroservice;
let repoApp: INestMicroservice;
let workerApp: INestMicroservice;
let rpc: RpcClient;
let queuePrefix: string;
let queue: Queue<MergeCheckJobData>;
let recordPush: (repoId: number, dir: string, updates: { ref: string; old: string; new: string }[]) => Promise<void>;

function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]) {
  return db.sql<R>(text, params);
}

beforeAll(async () => {
  db = await createScratchDatabase('pulls', { services: ['repo'] });
  databaseUrl = db.url;

  nats = await startPrivateNats();
  const natsUrl = nats.url;

  repoRoot = mkdtempSync(path.join(tmpdir(), 'cairn-it-pulls-storage-'));
  workRoot = mkdtempSync(path.join(tmpdir(), 'cairn-it-pulls-work-'));
  queuePrefix = `cairn-it-pulls-${randomUUID().slice(0, 8)}`;
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

  // This test runs the two apps together in one process: the worker's counterpart is repo-service itself.
  // eslint-disable-next-line cairn/module-boundaries
  const repoModule = await import('../../../repo-service/src/app.module.js');
  repoApp = await NestFactory.createMicroservice<MicroserviceOptions>(repoModule.AppModule, { ...options('repo-service'), logger: ['error'] });
  repoApp.useGlobalPipes(createRpcValidationPipe());
  repoApp.useGlobalFilters(new DomainErrorFilter());
  await repoApp.listen();
  // eslint-disable-next-line cairn/module-boundaries
  const { PushRecorder } = await import('../../../repo-service/src/tracker/ref-updates/push-recorder.service.js');
  const recorder = repoApp.get(PushRecorder);
  const relay = repoApp.get(OutboxRelay);
  recordPush = async (repoId, dir, updates) => {
    await recorder.record({ repoId, dir, pusherId: 1, via: 'http', journalId: randomUUID() }, updates);
    await relay.flush();
  };

  const workerModule = await import('../app.module.js');
  workerApp = await NestFactory.createMicroservice<MicroserviceOptions>(workerModule.AppModule, { ...options('merge-check-service'), logger: ['error'] });
  workerApp.useGlobalPipes(createRpcValidationPipe());
  workerApp.useGlobalFilters(new DomainErrorFilter());
  await workerApp.listen();

  rpc = new RpcClient(natsUrl, 30_000, 'pulls-it');
  await rpc.connect();
  queue = new Queue<MergeCheckJobData>(Queues.mergeCheck, {
    connection: { url: 'redis://127.0.0.1:6379', maxRetriesPerRequest: null },
    prefix: queuePrefix,
  });
});

afterAll(async () => {
  await queue?.close().catch(() => undefined);
  await rpc?.close().catch(() => undefined);
  await workerApp?.close().catch(() => undefined);
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

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** Polls until `fn` returns a truthy value (a wait, not a timed assertion: the bound only stops a hung test). */
async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, limitMs = 45_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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

async function settled(id: number): Promise<PullRow> {
  return waitFor(`the check of pull ${id}`, async () => {
    const row = await pullRow(id);
    return row.status !== 'checking' && row.checked_base_sha === row.base_sha && row.checked_head_sha === row.head_sha ? row : null;
  });
}

async function queueIdle(): Promise<boolean> {
  const c = await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed', 'waiting-children');
  return Object.values(c).every((n) => n === 0);
}

const checks = () => workerApp.get(MergeCheckService).checksRun;

async function backdate(issuePullIds: number[], days: number): Promise<void> {
  await sql(
    `UPDATE repo.issues SET updated_at = now() - make_interval(days => $2::int)
      WHERE id IN (SELECT issue_id FROM repo.pull_requests WHERE id = ANY($1::int[]))`,
    [issuePullIds, days],
  );
}


describe('pull requests', () => {
  it('creates a pull request checked at once: mergeable, with refs/pull/N/head and Gitea\'s JSON', async () => {
    const r = await newRepo();
    commit(r, 'feature', { 'a.txt': 'a\n' }, 'add a');
    await push(r, 'feature');
    const pr = await openPull(r, 'feature', 'Add a');
    expect(pr).toMatchObject({
      number: 1,
      title: 'Add a',
      state: 'open',
      merged: false,
      mergeable: false,
      mergeable_state: 'checking',
      head: { label: 'feature', ref: 'feature', sha: tip(r, 'feature'), repo_id: r.id },
      base: { label: 'main', ref: 'main', sha: tip(r, 'main'), repo_id: r.id },
      merge_base: tip(r, 'main'),
      user: { login: 'bob' },
      html_url: `${ROOT_URL}alice/${r.name}/pulls/1`,
      diff_url: `${ROOT_URL}alice/${r.name}/pulls/1.diff`,
      is_locked: false,
      locked: false,
    });
    expect(pr.head.repo).toMatchObject({ id: r.id, full_name: `alice/${r.name}` });
    expect(bareGit(r, 'rev-parse', 'refs/pull/1/head')).toBe(tip(r, 'feature'));

    const row = await settled(pr.id);
    expect(row.status).toBe('mergeable');
    const got = await rpc.send(PullSubjects.get, { ...r.scope(), index: 1, view: true });
    expect(got).toMatchObject({ mergeable: true, mergeable_state: 'mergeable', conflicted_files: [], additions: 1, deletions: 0, changed_files: 1 });
    const events = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'pullRequest'->>'id')::int = $2`,
      [PullRequestEvents.mergeabilityChanged, pr.id],
    );
    expect(events[0].n).toBe(1);

    const files = await rpc.send(PullSubjects.files, { ...r.scope(), index: 1, query: {} });
    expect(files.items).toMatchObject([{ filename: 'a.txt', status: 'added', additions: 1, deletions: 0, changes: 1 }]);
    const commits = await rpc.send(PullSubjects.commits, { ...r.scope(), index: 1, query: {} });
    expect(commits).toMatchObject({ total: 1, items: [{ sha: tip(r, 'feature'), commit: { message: 'add a\n' }, author: { login: 'bob' } }] });
  });

  it('refuses a second open pull request for the same branches (ALREADY_EXISTS naming the first), missing branches and empty ones', async () => {
    const r = await newRepo();
    commit(r, 'feature', { 'a.txt': 'a\n' }, 'add a');
    await push(r, 'feature');
    const first = await openPull(r, 'feature');
    const dup = await failure(openPull(r, 'feature'));
    expect(dup.code).toBe(ErrorCode.ALREADY_EXISTS);
    expect(dup.message).toContain(`id: ${first.id}`);
    expect((await failure(openPull(r, 'nope'))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await failure(openPull(r, 'main'))).code).toBe(ErrorCode.UNPROCESSABLE);
    git(r.work, 'checkout', '-q', '-b', 'same', 'origin/main');
    await push(r, 'same');
    expect((await failure(openPull(r, 'same'))).code).toBe(ErrorCode.UNPROCESSABLE);
    expect((await failure(openPull(r, '--upload-pack=x'))).code).toBe(ErrorCode.UNPROCESSABLE);
  });

  it('detects conflicts with the conflicted file names', async () => {
    const r = await newRepo();
    commit(r, 'main', { 'README.md': 'main side\n', 'x.txt': 'main\n', 'same.txt': 's\n' }, 'main edits');
    await push(r, 'main');
    commit(r, 'clash', { 'README.md': 'branch side\n', 'x.txt': 'branch\n', 'same.txt': 's\n' }, 'branch edits', 'main~1');
    await push(r, 'clash');
    const pr = await openPull(r, 'clash');
    const row = await settled(pr.id);
    expect(row.status).toBe('conflict');
    expect([...row.conflicted_files].sort()).toEqual(['README.md', 'x.txt']);
    const got = await rpc.send(PullSubjects.get, { ...r.scope(), index: pr.number });
    expect(got).toMatchObject({ mergeable: false, mergeable_state: 'conflict' });
    expect([...got.conflicted_files].sort()).toEqual(['README.md', 'x.txt']);
  });

  it('checks a pull request at once when its head moves (even if inactive), and keeps refs/pull/N/head current', async () => {
    const r = await newRepo();
    commit(r, 'topic', { 't.txt': '1\n' }, 't1');
    await push(r, 'topic');
    const pr = await openPull(r, 'topic');
    await settled(pr.id);
    await backdate([pr.id], 30);
    commit(r, 'topic', { 't.txt': '2\n' }, 't2');
    await push(r, 'topic');
    const row = await waitFor('the new head checked', async () => {
      const x = await pullRow(pr.id);
      return x.head_sha === tip(r, 'topic') && x.checked_head_sha === tip(r, 'topic') ? x : null;
    });
    expect(row.status).toBe('mergeable');
    expect(bareGit(r, 'rev-parse', `refs/pull/${pr.number}/head`)).toBe(tip(r, 'topic'));
    const sync = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'pullRequest'->>'id')::int = $2`,
      [PullRequestEvents.synchronized, pr.id],
    );
    expect(sync[0].n).toBe(1);
  });
});

describe('branches that return to earlier commits', () => {
  it('checks a commit pair again when a branch comes back to it after its check finished', async () => {
    const r = await newRepo();
    commit(r, 'back', { 'b.txt': '1\n' }, 'b1');
    await push(r, 'back');
    const first = tip(r, 'back');
    const pr = await openPull(r, 'back');
    await settled(pr.id);
    commit(r, 'back', { 'b.txt': '2\n' }, 'b2');
    await push(r, 'back');
    await waitFor('the second head checked', async () => ((await pullRow(pr.id)).checked_head_sha === tip(r, 'back') ? true : null));

    // A force push back to the first commit: the job of (base, first) finished long ago and is still kept.
    const jobId = mergeCheckJobId(pr.id, tip(r, 'main'), first);
    expect(await queue.getJobState(jobId)).toBe('completed');
    const ran = checks();
    git(r.work, 'checkout', '-q', 'back');
    git(r.work, 'reset', '-q', '--hard', first);
    await push(r, 'back');
    const row = await waitFor('the first head checked again', async () => {
      const x = await pullRow(pr.id);
      return x.head_sha === first && x.checked_head_sha === first && x.status !== 'checking' ? x : null;
    });
    expect(row.status).toBe('mergeable');
    expect(checks()).toBeGreaterThan(ran);
  });
});

describe('delayed checks after a base push', () => {
  it('runs exactly the checks of the active pull requests (K of N); the others stay checking without a job', async () => {
    const r = await newRepo();
    const N = 6;
    const K = 2;
    const pulls: PullRequestDto[] = [];
    for (let i = 0; i < N; i++) {
      commit(r, `f${i}`, { [`f${i}.txt`]: `${i}\n` }, `f${i}`);
      await push(r, `f${i}`);
      pulls.push(await openPull(r, `f${i}`));
    }
    for (const p of pulls) await settled(p.id);
    await waitFor('an idle queue', queueIdle);
    const inactive = pulls.slice(K).map((p) => p.id);
    await backdate(inactive, 30);
    const before = checks();

    commit(r, 'main', { 'base.txt': 'moved\n' }, 'move the base');
    await push(r, 'main');
    const newBase = tip(r, 'main');
    for (const p of pulls.slice(0, K)) {
      await waitFor(`pull ${p.id} checked against the new base`, async () => {
        const x = await pullRow(p.id);
        return x.checked_base_sha === newBase && x.status !== 'checking';
      });
    }
    await waitFor('an idle queue', queueIdle);
    expect(checks() - before).toBe(K);
    for (const id of inactive) {
      const x = await pullRow(id);
      expect(x).toMatchObject({ status: 'checking', base_sha: newBase });
      expect(await queue.getJob(mergeCheckJobId(id, newBase, x.head_sha))).toBeUndefined();
    }
    // Listing does not trigger checks.
    const list = await rpc.send(PullSubjects.list, { ...r.scope(), query: { limit: 50 } });
    expect(list.items.filter((p) => p.mergeable_state === 'checking')).toHaveLength(N - K);
    await waitFor('an idle queue', queueIdle);
    expect(checks() - before).toBe(K);

    // A view queues the delayed check at once; concurrent views make one job, and one check runs.
    const viewed = inactive[0];
    const number = pulls.find((p) => p.id === viewed)!.number;
    const views = await Promise.all(
      Array.from({ length: 8 }, () => rpc.send(PullSubjects.get, { ...r.scope(), index: number, view: true })),
    );
    expect(views[0].mergeable_state).toMatch(/checking|mergeable/);
    const row = await settled(viewed);
    expect(row.status).toBe('mergeable');
    await waitFor('an idle queue', queueIdle);
    expect(checks() - before).toBe(K + 1);
    const job = await queue.getJob(mergeCheckJobId(viewed, newBase, row.head_sha));
    expect(job?.finishedOn).toBeTruthy();
    // The by-branches GET is a view too.
    const other = pulls.find((p) => p.id === inactive[1])!;
    await rpc.send(PullSubjects.getByBranches, { ...r.scope(), base: 'main', head: other.head.ref });
    await settled(other.id);
    expect(checks() - before).toBe(K + 2);
  });

  it('ignores stale results', async () => {
    const r = await newRepo();
    commit(r, 'old', { 'o.txt': 'o\n' }, 'o');
    await push(r, 'old');
    const pr = await openPull(r, 'old');
    const first = await settled(pr.id);
    commit(r, 'old', { 'o.txt': 'o2\n' }, 'o2');
    await push(r, 'old');
    const moved = await waitFor('the new head', async () => {
      const x = await pullRow(pr.id);
      return x.head_sha !== first.head_sha && x.checked_head_sha === x.head_sha ? x : null;
    });
    const reply = await rpc.send(PullSubjects.reportMergeability, {
      pullId: pr.id,
      status: 'conflict',
      conflicted_files: ['o.txt'],
      base_sha: first.base_sha,
      head_sha: first.head_sha,
    });
    expect(reply.applied).toBe(false);
    expect(await pullRow(pr.id)).toMatchObject({ status: 'mergeable', head_sha: moved.head_sha, conflicted_files: [] });
  });

  it('records a check that exceeds its time limit as error, without retrying it', async () => {
    const r = await newRepo();
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`);
    commit(r, 'main', { 'big.txt': `${lines.join('\n')}\n` }, 'big file');
    await push(r, 'main');
    commit(r, 'slow', { 'big.txt': `${lines.map((l, i) => (i % 3 === 0 ? `${l} feat` : l)).join('\n')}\n` }, 'slow feat');
    await push(r, 'slow');
    commit(r, 'main', { 'big.txt': `${lines.map((l, i) => (i % 3 === 1 ? `${l} main` : l)).join('\n')}\n` }, 'slow main');
    await push(r, 'main');
    const pr = await openPull(r, 'slow');
    // The worker's own check of this pull request may finish or not; this one runs with a 100 ms limit.
    const base = tip(r, 'main');
    const head = tip(r, 'slow');
    const direct = await runCheck(r.dir, base, head, 100);
    expect(direct.status).toBe('error');
    expect(direct.message).toMatch(/time limit/);

    const settings = { ...workerApp.get<WorkerSettings>(WORKER_SETTINGS), checkTimeoutMs: 100 };
    const service = new MergeCheckService(
      workerApp.get(RpcClient), workerApp.get(GitChecker), new RepositoryPaths(), settings,
      workerApp.get(COMMON_SETTINGS),
    );
    await sql(`UPDATE repo.pull_requests SET status = 'checking', checked_base_sha = NULL WHERE id = $1`, [pr.id]);
    const outcome = await service.process({ pullId: pr.id, repoId: r.id, baseSha: base, headSha: head });
    expect(outcome).toMatchObject({ ran: true, status: 'error', applied: true });
    const row = await pullRow(pr.id);
    expect(row.status).toBe('error');
    expect(row.check_message).toMatch(/time limit/);
  });
});

describe('reports', () => {
  async function repoServices() {
    // eslint-disable-next-line cairn/module-boundaries
    const { MergeabilityService } = await import('../../../repo-service/src/tracker/pulls/mergeability.service.js');
    // eslint-disable-next-line cairn/module-boundaries
    const { PullsRepository } = await import('../../../repo-service/src/tracker/pulls/pulls.repository.js');
    // eslint-disable-next-line cairn/module-boundaries
    const { PrismaService } = await import('../../../repo-service/src/foundation/prisma/prisma.service.js');
    return { mergeability: repoApp.get(MergeabilityService), pulls: repoApp.get(PullsRepository), prisma: repoApp.get(PrismaService) };
  }

  const eventsOf = async (pullId: number) =>
    (await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'pullRequest'->>'id')::int = $2`,
      [PullRequestEvents.mergeabilityChanged, pullId],
    ))[0].n;

  it('reads a pull request for a report exactly as the ORM loads it', async () => {
    const r = await newRepo();
    commit(r, 'rd', { 'rd.txt': 'x\n' }, 'rd');
    await push(r, 'rd');
    const pr = await openPull(r, 'rd');
    await settled(pr.id);
    const { pulls, prisma } = await repoServices();
    const viaOrm = await prisma.issue.findFirst({ where: { pullRequest: { id: pr.id } }, include: { pullRequest: true } });
    expect(await pulls.findForReports([pr.id, 999_999])).toEqual([viaOrm]);
  });

  it('stores every result of a batch with one event each; a repeat and a stale result in the same batch are not applied', async () => {
    const r = await newRepo();
    const pulls: PullRequestDto[] = [];
    for (let i = 0; i < 4; i++) {
      commit(r, `b${i}`, { [`b${i}.txt`]: `${i}\n` }, `b${i}`);
      await push(r, `b${i}`);
      pulls.push(await openPull(r, `b${i}`));
    }
    for (const p of pulls) await settled(p.id);
    await waitFor('an idle queue', queueIdle);
    const ids = pulls.map((p) => p.id);
    await sql(`UPDATE repo.pull_requests SET status = 'checking', checked_base_sha = NULL, checked_head_sha = NULL WHERE id = ANY($1::int[])`, [ids]);
    const rows = await Promise.all(ids.map(pullRow));
    const before = await Promise.all(ids.map(eventsOf));
    const { mergeability } = await repoServices();
    const report = (i: number, status: 'mergeable' | 'conflict', extra: Record<string, unknown> = {}) =>
      mergeability.report({
        pullId: ids[i], status, conflicted_files: status === 'conflict' ? [`f${i}.txt`, 'dir/g h.txt'] : [],
        base_sha: rows[i].base_sha, head_sha: rows[i].head_sha, merge_base: rows[i].merge_base, ...extra,
      } as never);
    // All in one turn of the event loop: one batch.
    const replies = await Promise.all([
      report(0, 'mergeable'),
      report(1, 'conflict'),
      report(2, 'mergeable'),
      report(3, 'conflict'),
      report(1, 'conflict'),
      report(2, 'conflict', { head_sha: 'a'.repeat(40) }),
    ]);
    expect(replies.map((x) => x.applied)).toEqual([true, true, true, true, false, false]);
    const after = await Promise.all(ids.map(pullRow));
    expect(after.map((x) => x.status)).toEqual(['mergeable', 'conflict', 'mergeable', 'conflict']);
    expect(after[1].conflicted_files).toEqual(['f1.txt', 'dir/g h.txt']);
    expect(after.every((x, i) => x.checked_base_sha === rows[i].base_sha && x.checked_head_sha === rows[i].head_sha)).toBe(true);
    expect((await Promise.all(ids.map(eventsOf))).map((n, i) => n - before[i])).toEqual([1, 1, 1, 1]);
    const [event] = await sql<{ payload: { data: PullRequestEventData } }>(
      `SELECT payload FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'pullRequest'->>'id')::int = $2
        ORDER BY created_at DESC LIMIT 1`,
      [PullRequestEvents.mergeabilityChanged, ids[3]],
    );
    expect(event.payload.data).toMatchObject({
      action: 'mergeability_changed',
      number: pulls[3].number,
      pullRequest: { id: ids[3], mergeable_state: 'conflict', conflicted_files: ['f3.txt', 'dir/g h.txt'] },
      mergeability: { status: 'conflict', baseSha: rows[3].base_sha, headSha: rows[3].head_sha },
    });
    // Reported again once stored: nothing changes, no event.
    expect((await report(0, 'mergeable')).applied).toBe(false);
    expect(await eventsOf(ids[0])).toBe(before[0] + 1);
  });

  it('finds a renamed repository again: a check in the remembered place fails, is asked again and succeeds', async () => {
    const r = await newRepo();
    commit(r, 'mv', { 'mv.txt': '1\n' }, 'mv');
    await push(r, 'mv');
    const pr = await openPull(r, 'mv');
    await settled(pr.id);
    const newName = `${r.name}-renamed`;
    await rpc.send(RepoSubjects.repositoryEdit, { ...r.scope('alice', 'owner'), body: { name: newName } });
    const moved: TestRepo = { ...r, name: newName, dir: path.join(repoRoot, 'alice', `${newName}.git`) };
    git(r.work, 'remote', 'set-url', 'origin', moved.dir);
    commit(moved, 'mv', { 'mv.txt': '2\n' }, 'mv2');
    await push(moved, 'mv');
    const head = tip(moved, 'mv');
    const row = await waitFor('the new head checked', async () => {
      const x = await pullRow(pr.id);
      return x.head_sha === head && x.checked_head_sha === head && x.status !== 'checking' ? x : null;
    });
    expect(row.status).toBe('mergeable');
  });
});

describe('merging', () => {
  /** A pull request with two commits on a topic branch, the base moved meanwhile (unless `moveBase` is false). */
  async function prepared(moveBase = true) {
    const r = await newRepo();
    commit(r, 'topic', { 'one.txt': '1\n' }, 'first change');
    commit(r, 'topic', { 'two.txt': '2\n' }, 'second change');
    await push(r, 'topic');
    if (moveBase) {
      commit(r, 'main', { 'base.txt': 'b\n' }, 'base moves');
      await push(r, 'main');
    }
    const pr = await openPull(r, 'topic', 'Topic work');
    await settled(pr.id);
    return { r, pr, base: tip(r, 'main'), head: tip(r, 'topic') };
  }

  const merge = (r: TestRepo, number: number, body: MergePullBody) =>
    rpc.send(PullSubjects.merge, { ...r.scope('alice', 'owner'), index: number, body });

  it('merge: a merge commit with two parents (base, head), a push event for the base, the pull request merged', async () => {
    const { r, pr, base, head } = await prepared();
    await merge(r, pr.number, { Do: 'merge', head_commit_id: head });
    const main = tip(r, 'main');
    expect(parents(r, main)).toEqual([base, head]);
    expect(bareGit(r, 'log', '-1', '--format=%s', main)).toBe(`Merge pull request 'Topic work' (#${pr.number}) from topic into main`);
    expect(bareGit(r, 'log', '-1', '--format=%an <%ae>', main)).toBe('Alice Liddell <alice@example.com>');
    const row = await pullRow(pr.id);
    expect(row).toMatchObject({ merged: true, merge_commit_sha: main });
    const got = await rpc.send(PullSubjects.get, { ...r.scope(), index: pr.number });
    expect(got).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: main, merged_by: { login: 'alice' } });
    expect(await rpc.send(PullSubjects.isMerged, { ...r.scope(), index: pr.number })).toBe(true);
    const pushes = await sql<{ payload: { data: { updates: { ref: string; old: string; new: string; totalCommits: number }[] } } }>(
      `SELECT payload FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'repository'->>'id')::int = $2 ORDER BY created_at DESC LIMIT 1`,
      [RepoEvents.pushReceived, r.id],
    );
    expect(pushes[0].payload.data.updates).toMatchObject([{ ref: 'refs/heads/main', old: base, new: main, totalCommits: 3 }]);
    const merged = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'pullRequest'->>'id')::int = $2`, [PullRequestEvents.merged, pr.id]);
    expect(merged[0].n).toBe(1);
    expect((await failure(merge(r, pr.number, { Do: 'merge' }))).code).toBe(ErrorCode.NOT_ALLOWED);
  });

  it('squash: one commit with one parent holding the merged tree, authored by the pull request\'s author', async () => {
    const { r, pr, base } = await prepared();
    await merge(r, pr.number, { Do: 'squash', MergeTitleField: 'Squashed topic', MergeMessageField: 'details' });
    const main = tip(r, 'main');
    expect(parents(r, main)).toEqual([base]);
    expect(bareGit(r, 'ls-tree', '--name-only', main).split('\n').sort()).toEqual(['README.md', 'base.txt', 'one.txt', 'two.txt']);
    expect(bareGit(r, 'log', '-1', '--format=%an|%cn|%B', main)).toBe('Bob Builder|Alice Liddell|Squashed topic\n\ndetails');
  });

  it('rebase: the head\'s commits replayed one by one onto the base, then the base moved to them', async () => {
    const { r, pr, base, head } = await prepared();
    await merge(r, pr.number, { Do: 'rebase' });
    const main = tip(r, 'main');
    const log = bareGit(r, 'log', '--format=%H %P|%s|%an', `${base}..${main}`).split('\n');
    expect(log.map((l) => l.split('|').slice(1).join('|'))).toEqual(['second change|Bob Builder', 'first change|Bob Builder']);
    expect(parents(r, `${main}~1`)).toEqual([base]);
    expect(parents(r, main)).toHaveLength(1);
    expect(main).not.toBe(head);
    expect(bareGit(r, 'ls-tree', '--name-only', main).split('\n').sort()).toEqual(['README.md', 'base.txt', 'one.txt', 'two.txt']);
  });

  it('fast-forward-only: moves the base to the head when it is an ancestor, refuses (NOT_ALLOWED) otherwise', async () => {
    const moved = await prepared(true);
    const err = await failure(merge(moved.r, moved.pr.number, { Do: 'fast-forward-only' }));
    expect(err.code).toBe(ErrorCode.NOT_ALLOWED);
    expect(tip(moved.r, 'main')).toBe(moved.base);
    const { r, pr, head } = await prepared(false);
    await merge(r, pr.number, { Do: 'fast-forward-only', delete_branch_after_merge: true });
    expect(tip(r, 'main')).toBe(head);
    expect(tip(r, 'topic')).toBe(ZERO);
  });

  it('refuses a stale head_commit_id with CONFLICT and merges nothing', async () => {
    const { r, pr, base, head } = await prepared();
    commit(r, 'topic', { 'three.txt': '3\n' }, 'third');
    await push(r, 'topic');
    const err = await failure(merge(r, pr.number, { Do: 'merge', head_commit_id: head }));
    expect(err.code).toBe(ErrorCode.CONFLICT);
    expect(tip(r, 'main')).toBe(base);
  });

  it('runs the pending check of a delayed pull request before merging, and answers a conflict with its files', async () => {
    const r = await newRepo();
    commit(r, 'ok', { 'ok.txt': '1\n' }, 'ok');
    commit(r, 'bad', { 'README.md': 'theirs\n' }, 'bad');
    await push(r, 'ok', 'bad');
    const ok = await openPull(r, 'ok');
    const bad = await openPull(r, 'bad');
    await settled(ok.id);
    await settled(bad.id);
    await backdate([ok.id, bad.id], 30);
    commit(r, 'main', { 'README.md': 'ours\n' }, 'base edit');
    await push(r, 'main');
    const newBase = tip(r, 'main');
    await waitFor('both marked checking', async () => {
      const rows = await Promise.all([pullRow(ok.id), pullRow(bad.id)]);
      return rows.every((x) => x.base_sha === newBase && x.status === 'checking');
    });
    const conflict = await failure(merge(r, bad.number, { Do: 'merge' }));
    expect(conflict.code).toBe(ErrorCode.CONFLICT);
    expect(conflict.details).toEqual(['README.md']);
    expect(await pullRow(bad.id)).toMatchObject({ status: 'conflict', checked_base_sha: newBase });
    await merge(r, ok.number, { Do: 'merge' });
    expect(parents(r, tip(r, 'main'))).toEqual([newBase, tip(r, 'ok')]);
  });
});

describe('updating a pull request branch', () => {
  it('merge style: merges the base into the head; rebase style: replays the head onto the base', async () => {
    const r = await newRepo();
    commit(r, 'u1', { 'u1.txt': '1\n' }, 'u1');
    commit(r, 'u2', { 'u2.txt': '2\n' }, 'u2', 'main');
    await push(r, 'u1', 'u2');
    const p1 = await openPull(r, 'u1');
    const p2 = await openPull(r, 'u2');
    commit(r, 'main', { 'm.txt': 'm\n' }, 'main moves');
    await push(r, 'main');
    const base = tip(r, 'main');
    const h1 = tip(r, 'u1');
    await rpc.send(PullSubjects.update, { ...r.scope('bob', 'write'), index: p1.number, style: 'merge' });
    expect(parents(r, tip(r, 'u1'))).toEqual([h1, base]);
    await rpc.send(PullSubjects.update, { ...r.scope('bob', 'write'), index: p2.number, style: 'rebase' });
    expect(parents(r, tip(r, 'u2'))).toEqual([base]);
    expect(bareGit(r, 'log', '-1', '--format=%s', tip(r, 'u2'))).toBe('u2');
    const row = await waitFor('the updated head checked', async () => {
      const x = await pullRow(p2.id);
      return x.head_sha === tip(r, 'u2') && x.checked_head_sha === x.head_sha ? x : null;
    });
    expect(row.status).toBe('mergeable');
    await rpc.send(PullSubjects.update, { ...r.scope('bob', 'write'), index: p2.number, style: 'rebase' });
    expect(tip(r, 'u2')).toBe(row.head_sha);
  });

  it('answers CONFLICT when the base cannot be merged into the head', async () => {
    const r = await newRepo();
    commit(r, 'c', { 'README.md': 'c side\n' }, 'c');
    await push(r, 'c');
    const pr = await openPull(r, 'c');
    commit(r, 'main', { 'README.md': 'main side\n' }, 'm');
    await push(r, 'main');
    const err = await failure(rpc.send(PullSubjects.update, { ...r.scope('bob', 'write'), index: pr.number, style: 'merge' }));
    expect(err.code).toBe(ErrorCode.CONFLICT);
    expect(err.details).toEqual(['README.md']);
  });

  it('finishes the update even when the caller stops waiting', async () => {
    const r = await newRepo();
    commit(r, 'gone', { 'g.txt': '1\n' }, 'g');
    await push(r, 'gone');
    const pr = await openPull(r, 'gone');
    commit(r, 'main', { 'm2.txt': 'm\n' }, 'main moves again');
    await push(r, 'main');
    const head = tip(r, 'gone');
    const err = await failure(rpc.send(PullSubjects.update, { ...r.scope('bob', 'write'), index: pr.number, style: 'merge' }, { timeoutMs: 1 }));
    expect(err.code).toBe(ErrorCode.TIMEOUT);
    const row = await waitFor('the update to land', async () => {
      const x = await pullRow(pr.id);
      return x.head_sha !== head ? x : null;
    });
    expect(tip(r, 'gone')).toBe(row.head_sha);
    expect(parents(r, row.head_sha)).toEqual([head, tip(r, 'main')]);
  });
});
