// repo-service's git transport (internal smart HTTP, SSH) in-process on real repositories, driven by real git and ssh.
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Module, type INestApplicationContext, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, IdentitySubjects, RepoEvents, RepoSubjects, ZERO_SHA, twoFactorRequiredMessage,
  type AccessLevel, type ActorDto, type DomainEvent, type PushEventData, type RepoAccessReply, type ResolveKeyReply,
  type UserDto,
} from '@cairn/contracts';
import { DomainErrorFilter, PlatformModule, RpcClient } from '@cairn/platform';
import {
  commitGraphState, lastCommitCache, lastCommitsForPaths, pullHeadRef, repoStoragePath, updateRef,
} from '@cairn/git';
import { RepoConfigModule } from '../../foundation/config/repo-settings.js';
import { PrismaModule } from '../../foundation/prisma/prisma.module.js';
import { CommitGraphMaintainer } from '../git/commit-graph-maintainer.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { RepoStorage } from '../storage/repo-storage.js';
import { StorageModule } from '../storage/storage.module.js';
import { SigningModule } from '../signing/signing.module.js';
import { GitTransport, type StartedTransport } from './git-transport.js';
import { PushRecorder } from '../../tracker/ref-updates/push-recorder.service.js';
import { GitSshServer } from './ssh.server.js';
import { PushJournals } from './push-journal.js';
import { InternalGitHttpServer } from './internal-http.server.js';
import { loadOrCreateHostKey } from './ssh-host-key.js';
import { TransportModule } from './transport.module.js';
import { LayerPortsModule } from '../../layer-ports.module.js';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../../../../test/support/integration.js';

const ROOT_URL = 'http://cairn.test:3000/';
const INTERNAL_TOKEN = `it-internal-${randomUUID()}`;


interface Person {
  id: number;
  login: string;
  email: string;
  /** Access to every repository of this test (the stand-in for `repo.access.resolve`). */
  access: AccessLevel;
  hasTwoFactor?: boolean;
  keyBlob?: string;
  keyId?: number;
}

const people: Person[] = [
  { id: 1, login: 'alice', email: 'alice@example.com', access: 'owner' },
  { id: 2, login: 'bob', email: 'bob@example.com', access: 'read' },
  { id: 3, login: 'carol', email: 'carol@example.com', access: 'write' }, // her key is never registered
  { id: 4, login: 'dora', email: 'dora@example.com', access: 'write', hasTwoFactor: true },
];
const actorOf = (p: Person): ActorDto => ({
  id: p.id,
  login: p.login,
  isAdmin: false,
  scopes: ['all'],
  hasTwoFactor: p.hasTwoFactor ?? false,
  via: 'ssh',
});
const userDto = (p: Person): UserDto => ({
  id: p.id, login: p.login, login_name: '', source_id: 0, full_name: p.login.toUpperCase(), email: p.email,
  avatar_url: '', html_url: `${ROOT_URL}${p.login}`, language: '', is_admin: false, last_login: '1970-01-01T00:00:00Z',
  created: '2024-01-01T00:00:00Z', restricted: false, active: true, prohibit_login: false, location: '', website: '',
  description: '', visibility: 'public', followers_count: 0, following_count: 0, starred_repos_count: 0, username: p.login,
});

/** Repositories by `owner/name` (lower case) → their ref, filled in as the tests create them. */
const repos = new Map<string, RepoAccessReply['repo']>();
const touchedKeys: number[] = [];

class FakeResponders {
  keyResolve(req: { keyBlobBase64: string }): ResolveKeyReply {
    const p = people.find((x) => x.keyBlob && x.keyBlob === req.keyBlobBase64 && x.login !== 'carol');
    if (!p) throw DomainError.notFound('key not found');
    return { keyId: p.keyId!, fingerprint: `SHA256:fake-${p.login}`, actor: actorOf(p) };
  }

  keyTouch(req: { keyId: number }) {
    touchedKeys.push(req.keyId);
    return { ok: true };
  }

  accessResolve(req: { actor: ActorDto | null; owner: string; repo: string }): RepoAccessReply {
    const repo = repos.get(`${req.owner}/${req.repo}`.toLowerCase());
    const person = people.find((p) => p.id === req.actor?.id);
    if (!repo || !person) throw DomainError.notFound('not found');
    return { repo, access: person.access };
  }

  userLookup(req: { ids?: number[]; emails?: string[] }) {
    const emails = (req.emails ?? []).map((e) => e.toLowerCase());
    const found = people.filter((p) => req.ids?.includes(p.id) || emails.includes(p.email));
    const byEmail = Object.fromEntries(found.filter((p) => emails.includes(p.email)).map((p) => [p.email, p.id]));
    return { users: found.map(userDto), byEmail };
  }
}

const fakePatterns: Record<string, keyof FakeResponders> = {
  [IdentitySubjects.keyResolve]: 'keyResolve',
  [IdentitySubjects.keyTouch]: 'keyTouch',
  [RepoSubjects.accessResolve]: 'accessResolve',
  [IdentitySubjects.userLookup]: 'userLookup',
};
for (const [subject, method] of Object.entries(fakePatterns)) {
  const proto = FakeResponders.prototype;
  MessagePattern(subject)(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
}
Controller()(FakeResponders);
class FakeModule {}
Module({ controllers: [FakeResponders] })(FakeModule);

/** The transport with what it needs from repo-service (test files cannot use decorator syntax). */
class TransportTestModule {}
Module({
  imports: [
    PlatformModule.forService({ service: 'repo', schema: 'repo' }),
    RepoConfigModule,
    PrismaModule,
    StorageModule,
    SigningModule,
    TransportModule,
    LayerPortsModule,
  ],
})(TransportTestModule);


let nats: PrivateNats;
let work: string;
let repoRoot: string;
let databaseUrl: string;
let db: ScratchDatabase;
let fakeApp: INestMicroservice;
let app: INestApplicationContext;
let transport: StartedTransport;
let httpBase: string;
const savedEnv = { ...process.env };

function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, params?: unknown[]) {
  return db.sql<R>(text, params);
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command (argument vector, no shell) with a clean git/ssh environment; never throws on a non-zero exit. */
function run(cmd: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd: options.cwd,
        env: {
          PATH: process.env.PATH,
          HOME: path.join(work, 'home'),
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_TERMINAL_PROMPT: '0',
          GIT_AUTHOR_NAME: 'Alice',
          GIT_AUTHOR_EMAIL: 'alice@example.com',
          GIT_COMMITTER_NAME: 'Alice',
          GIT_COMMITTER_EMAIL: 'alice@example.com',
          ...options.env,
        },
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

async function git(cwd: string | undefined, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return run('git', args, { cwd, env });
}

async function gitOk(cwd: string | undefined, args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await git(cwd, args, env);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

/** `git -c http.extraHeader=…` arguments that act as the gateway: internal token, repository id, actor. */
function asGateway(repoId: number, actorId = 1, token = INTERNAL_TOKEN): string[] {
  return [
    '-c', `http.extraHeader=x-cairn-internal-token: ${token}`,
    '-c', `http.extraHeader=x-cairn-repo-id: ${repoId}`,
    '-c', `http.extraHeader=x-cairn-actor-id: ${actorId}`,
  ];
}

const pktLineOf = (text: string) => (Buffer.byteLength(text) + 4).toString(16).padStart(4, '0') + text;

const httpUrl = (owner: string, name: string) => `${httpBase}/internal/git/${owner}/${name}`;

function sshEnv(login: string): Record<string, string> {
  const key = path.join(work, 'keys', login);
  return {
    GIT_SSH_COMMAND: `ssh -i ${key} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o LogLevel=ERROR -o BatchMode=yes`,
  };
}

function sshArgs(login: string, port: number): string[] {
  return [
    '-i', path.join(work, 'keys', login), '-p', String(port),
    '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'IdentitiesOnly=yes',
    '-o', 'LogLevel=ERROR', '-o', 'BatchMode=yes',
  ];
}

const sshUrl = (owner: string, name: string) => `ssh://git@127.0.0.1:${transport.sshPort}/${owner}/${name}.git`;

async function createRepo(owner: Person, name: string, defaultBranch = 'main', isPrivate = true): Promise<number> {
  const prisma = app.get(PrismaService);
  const row = await prisma.repository.create({
    data: {
      ownerId: owner.id,
      ownerName: owner.login,
      ownerLowerName: owner.login.toLowerCase(),
      ownerKind: 'user',
      name,
      lowerName: name.toLowerCase(),
      defaultBranch,
      isPrivate,
    },
  });
  await app.get(RepoStorage).init({ ownerName: owner.login, name }, defaultBranch);
  repos.set(`${owner.login}/${name}`.toLowerCase(), {
    id: row.id,
    ownerId: owner.id,
    ownerName: owner.login,
    name,
    defaultBranch,
    private: isPrivate,
    empty: true,
  });
  return row.id;
}

/** A new local repository with `count` commits on `branch` (files f1…fn). */
async function localRepo(branch: string, count: number, prefix = 'f'): Promise<string> {
  const dir = mkdtempSync(path.join(work, 'local-'));
  await gitOk(dir, ['init', '-q', `--initial-branch=${branch}`]);
  for (let i = 1; i <= count; i++) {
    writeFileSync(path.join(dir, `${prefix}${i}.txt`), `${prefix} ${i}\n`);
    await gitOk(dir, ['add', '.']);
    await gitOk(dir, ['commit', '-q', '-m', `${prefix} commit ${i}`]);
  }
  return dir;
}

async function pushEvents(repoId: number): Promise<Array<DomainEvent<PushEventData>>> {
  const rows = await sql<{ payload: DomainEvent<PushEventData> }>(
    `SELECT payload FROM repo.outbox_events WHERE subject = $1 AND (payload->'data'->'repository'->>'id')::int = $2
     ORDER BY created_at, id`,
    [RepoEvents.pushReceived, repoId],
  );
  return rows.map((r) => r.payload);
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'cairn-it-transport-'));
  mkdirSync(path.join(work, 'home'));
  mkdirSync(path.join(work, 'keys'));
  repoRoot = path.join(work, 'data', 'repositories');
  mkdirSync(repoRoot, { recursive: true });

  db = await createScratchDatabase('transport', { services: ['repo'] });
  databaseUrl = db.url;

  nats = await startPrivateNats();
  const natsUrl = nats.url;

  for (const [i, p] of people.entries()) {
    const key = path.join(work, 'keys', p.login);
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', p.login, '-f', key]);
    p.keyBlob = readFileSync(`${key}.pub`, 'utf8').split(' ')[1];
    p.keyId = 100 + i;
  }

  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    CAIRN__REPOSITORY__ROOT: repoRoot,
    CAIRN__SERVER__ROOT_URL: ROOT_URL,
    CAIRN__SERVER__SSH_PORT: '2222',
    CAIRN__SERVER__SSH_LISTEN_HOST: '127.0.0.1',
    CAIRN__CAIRN__REPO_INTERNAL_HOST: '127.0.0.1',
    CAIRN__SECURITY__INTERNAL_TOKEN: INTERNAL_TOKEN,
    CAIRN__CAIRN__PUSH_EVENT_MAX_COMMITS: '3',
  });

  fakeApp = await NestFactory.createMicroservice<MicroserviceOptions>(FakeModule, {
    transport: Transport.NATS,
    options: { servers: [natsUrl], queue: 'fake' },
    logger: false,
  });
  fakeApp.useGlobalFilters(new DomainErrorFilter());
  await fakeApp.listen();

  app = await NestFactory.createApplicationContext(TransportTestModule, { logger: ['error'] });
  await app.init();
  transport = await app.get(GitTransport).start({ httpPort: 0, sshPort: 0 });
  httpBase = `http://127.0.0.1:${transport.httpPort}`;
});

afterAll(async () => {
  await transport?.stop().catch(() => undefined);
  await app?.close().catch(() => undefined);
  await fakeApp?.close().catch(() => undefined);
  await nats?.stop();
  await db?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
  process.env = savedEnv;
});


describe('internal git HTTP endpoint', () => {
  it('refuses requests without the internal token, or with a wrong one', async () => {
    const id = await createRepo(people[0], 'guarded');
    const url = `${httpUrl('alice', 'guarded')}/info/refs?service=git-upload-pack`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { 'x-cairn-internal-token': `${INTERNAL_TOKEN}x` } })).status).toBe(401);
    const ok = await fetch(url, { headers: { 'x-cairn-internal-token': INTERNAL_TOKEN } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect((await ok.text()).startsWith('001e# service=git-upload-pack\n0000')).toBe(true);

    const r = await git(work, [...asGateway(id, 1, 'wrong-token-wrong-token'), 'ls-remote', httpUrl('alice', 'guarded')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/401|Authentication failed|could not read Username/i);
  });

  it('answers 404 for a missing repository, 400 for a bad path, 403 for the dumb protocol, 415 for a wrong type', async () => {
    const h = { 'x-cairn-internal-token': INTERNAL_TOKEN };
    expect((await fetch(`${httpUrl('alice', 'missing')}/info/refs?service=git-upload-pack`, { headers: h })).status).toBe(404);
    expect((await fetch(`${httpBase}/internal/git/alice/..%2F..%2Fetc/info/refs?service=git-upload-pack`, { headers: h })).status).toBe(400);
    expect((await fetch(`${httpBase}/internal/git/alice/x.git/info/refs?service=git-upload-pack`, { headers: h })).status).toBe(400);
    await createRepo(people[0], 'protocols');
    expect((await fetch(`${httpUrl('alice', 'protocols')}/info/refs`, { headers: h })).status).toBe(403);
    const wrongType = await fetch(`${httpUrl('alice', 'protocols')}/git-upload-pack`, {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(wrongType.status).toBe(415);
  });

  it('records the first push exactly: event, non-empty, default branch = the pushed branch, HEAD', async () => {
    const id = await createRepo(people[0], 'first-push', 'main');
    const local = await localRepo('trunk', 2);
    const head = await gitOk(local, ['rev-parse', 'HEAD']);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'first-push'), 'trunk']);

    const events = await pushEvents(id);
    expect(events).toHaveLength(1);
    const data = events[0].data;
    expect(data.pusher).toMatchObject({ id: 1, login: 'alice' });
    expect(data.repository).toMatchObject({ id, ownerName: 'alice', name: 'first-push', fullName: 'alice/first-push', defaultBranch: 'trunk' });
    expect(data.repository.json).toMatchObject({ full_name: 'alice/first-push', empty: false, default_branch: 'trunk' });
    expect(data.updates).toHaveLength(1);
    const [u] = data.updates;
    expect(u).toMatchObject({ ref: 'refs/heads/trunk', old: ZERO_SHA, new: head, totalCommits: 2 });
    expect(u.commits.map((c) => c.message)).toEqual(['f commit 2\n', 'f commit 1\n']);
    expect(u.commits[0]).toMatchObject({
      id: head,
      url: `${ROOT_URL}alice/first-push/commit/${head}`,
      author: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
      committer: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
      added: ['f2.txt'],
      removed: [],
      modified: [],
    });
    expect(u.commits[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);

    const [row] = await sql<{ is_empty: boolean; default_branch: string }>(
      'SELECT is_empty, default_branch FROM repo.repositories WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ is_empty: false, default_branch: 'trunk' });
    const dir = path.join(repoRoot, 'alice', 'first-push.git');
    expect(await gitOk(undefined, ['--git-dir', dir, 'symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');

    // A clone gets the pushed branch checked out.
    const clone = path.join(work, `clone-${randomUUID()}`);
    await gitOk(work, [...asGateway(id), 'clone', '-q', httpUrl('alice', 'first-push'), clone]);
    expect(readFileSync(path.join(clone, 'f2.txt'), 'utf8')).toBe('f 2\n');
    expect(await gitOk(clone, ['rev-parse', 'HEAD'])).toBe(head);
  });

  it("keeps the configured default branch when it is among the first push's branches", async () => {
    const id = await createRepo(people[0], 'keeps-default', 'main');
    const local = await localRepo('aaa', 1);
    await gitOk(local, ['branch', 'main']);
    await gitOk(local, ['branch', 'zzz']);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'keeps-default'), 'aaa', 'zzz', 'main']);
    const [event] = await pushEvents(id);
    expect(event.data.updates.map((u) => u.ref).sort()).toEqual(['refs/heads/aaa', 'refs/heads/main', 'refs/heads/zzz']);
    expect(event.data.repository.defaultBranch).toBe('main');
    // Branches created together each report the commits that were new to the repository (here: the same one).
    for (const u of event.data.updates) expect(u.totalCommits).toBe(1);
    // A branch created later from an existing commit brings no new commits; one with a new commit brings just that.
    await gitOk(local, ['branch', 'again', 'main']);
    await gitOk(local, ['checkout', '-q', '-b', 'more']);
    writeFileSync(path.join(local, 'more.txt'), 'more\n');
    await gitOk(local, ['add', '.']);
    await gitOk(local, ['commit', '-q', '-m', 'more']);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'keeps-default'), 'again', 'more']);
    const later = (await pushEvents(id))[1].data.updates;
    expect(later.find((u) => u.ref === 'refs/heads/again')).toMatchObject({ totalCommits: 0, commits: [] });
    expect(later.find((u) => u.ref === 'refs/heads/more')?.commits.map((c) => c.message)).toEqual(['more\n']);
  });

  it('reports updates, deletions and tags of one push in one event, with capped commit lists', async () => {
    const id = await createRepo(people[0], 'many-refs');
    const local = await localRepo('main', 1);
    await gitOk(local, ['branch', 'doomed']);
    const url = httpUrl('alice', 'many-refs');
    await gitOk(local, [...asGateway(id), 'push', '-q', url, 'main', 'doomed']);
    const before = await gitOk(local, ['rev-parse', 'HEAD']);
    for (let i = 1; i <= 5; i++) {
      writeFileSync(path.join(local, 'f1.txt'), `change ${i}\n`);
      if (i === 5) rmSync(path.join(local, 'f1.txt'));
      await gitOk(local, ['add', '-A']);
      await gitOk(local, ['commit', '-q', '-m', `update ${i}`]);
    }
    const after = await gitOk(local, ['rev-parse', 'HEAD']);
    await gitOk(local, ['tag', 'v1']);
    await gitOk(local, [...asGateway(id), 'push', '-q', url, 'main', ':doomed', 'v1']);

    const events = await pushEvents(id);
    expect(events).toHaveLength(2);
    const updates = events[1].data.updates;
    expect(updates).toHaveLength(3);
    const byRef = Object.fromEntries(updates.map((u) => [u.ref, u]));
    expect(byRef['refs/heads/main']).toMatchObject({ old: before, new: after, totalCommits: 5 });
    // PUSH_EVENT_MAX_COMMITS is 3 in this test: newest first, capped, with the real total.
    expect(byRef['refs/heads/main'].commits.map((c) => c.message.trim())).toEqual(['update 5', 'update 4', 'update 3']);
    expect(byRef['refs/heads/main'].commits[0]).toMatchObject({ removed: ['f1.txt'], added: [], modified: [] });
    expect(byRef['refs/heads/main'].commits[1]).toMatchObject({ modified: ['f1.txt'] });
    expect(byRef['refs/heads/doomed']).toMatchObject({ old: before, new: ZERO_SHA, commits: [], totalCommits: 0 });
    expect(byRef['refs/tags/v1']).toMatchObject({ old: ZERO_SHA, new: after, commits: [], totalCommits: 0 });
  });

  it('records nothing for a push that changes nothing, and serves fetches in protocol v0 and v2', async () => {
    const id = await createRepo(people[0], 'quiet');
    const local = await localRepo('main', 1);
    const url = httpUrl('alice', 'quiet');
    await gitOk(local, [...asGateway(id), 'push', '-q', url, 'main']);
    await gitOk(local, [...asGateway(id), 'push', '-q', url, 'main']); // "Everything up-to-date"
    expect(await pushEvents(id)).toHaveLength(1);
    for (const version of ['0', '2']) {
      const clone = path.join(work, `clone-v${version}-${randomUUID()}`);
      await gitOk(work, ['-c', `protocol.version=${version}`, ...asGateway(id), 'clone', '-q', url, clone]);
      expect(readFileSync(path.join(clone, 'f1.txt'), 'utf8')).toBe('f 1\n');
    }
  });

  it('accepts gzip-compressed request bodies, as git sends them for large negotiations', async () => {
    const id = await createRepo(people[0], 'gzipped');
    const local = await localRepo('main', 1);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'gzipped'), 'main']);
    const head = await gitOk(local, ['rev-parse', 'HEAD']);
    const request = `${pktLineOf(`want ${head} ofs-delta\n`)}0000${pktLineOf('done\n')}`;
    const res = await fetch(`${httpUrl('alice', 'gzipped')}/git-upload-pack`, {
      method: 'POST',
      headers: {
        'x-cairn-internal-token': INTERNAL_TOKEN,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      body: gzipSync(Buffer.from(request)),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 8).toString()).toBe('0008NAK\n');
    expect(body.subarray(8, 12).toString()).toBe('PACK');
  });

  it('streams large packs both ways over HTTP and SSH', async () => {
    const id = await createRepo(people[0], 'large');
    const local = await localRepo('main', 1);
    // Incompressible content, well beyond pipe buffers and SSH windows.
    writeFileSync(path.join(local, 'big.bin'), randomBytes(12 * 1024 * 1024));
    await gitOk(local, ['add', '.']);
    await gitOk(local, ['commit', '-q', '-m', 'big']);
    const head = await gitOk(local, ['rev-parse', 'HEAD']);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'large'), 'main']);
    const overHttp = path.join(work, `large-http-${randomUUID()}`);
    await gitOk(work, [...asGateway(id), 'clone', '-q', httpUrl('alice', 'large'), overHttp]);
    const overSsh = path.join(work, `large-ssh-${randomUUID()}`);
    await gitOk(work, ['clone', '-q', sshUrl('alice', 'large'), overSsh], sshEnv('alice'));
    for (const dir of [overHttp, overSsh]) {
      expect(await gitOk(dir, ['rev-parse', 'HEAD'])).toBe(head);
      expect(readFileSync(path.join(dir, 'big.bin')).equals(readFileSync(path.join(local, 'big.bin')))).toBe(true);
    }
    expect(await pushEvents(id)).toHaveLength(1);
  });
});


describe('SSH server', () => {
  it('clones and pushes with a registered key, records the push and the key use', async () => {
    const id = await createRepo(people[0], 'over-ssh');
    const local = await localRepo('main', 2);
    const head = await gitOk(local, ['rev-parse', 'HEAD']);
    touchedKeys.length = 0;
    await gitOk(local, ['push', '-q', sshUrl('alice', 'over-ssh'), 'main'], sshEnv('alice'));

    const events = await pushEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0].data.pusher).toMatchObject({ id: 1, login: 'alice' });
    expect(events[0].data.updates).toEqual([
      expect.objectContaining({ ref: 'refs/heads/main', old: ZERO_SHA, new: head, totalCommits: 2 }),
    ]);

    // scp-like URL (no leading slash, no .git) and protocol v2 over SSH.
    const clone = path.join(work, `ssh-clone-${randomUUID()}`);
    const env = {
      GIT_SSH_COMMAND: `${sshEnv('alice').GIT_SSH_COMMAND} -p ${transport.sshPort}`,
    };
    await gitOk(work, ['-c', 'protocol.version=2', 'clone', '-q', 'git@127.0.0.1:alice/over-ssh', clone], env);
    expect(await gitOk(clone, ['rev-parse', 'HEAD'])).toBe(head);
    expect(touchedKeys.filter((k) => k === people[0].keyId).length).toBeGreaterThanOrEqual(2);
  });

  it('lets a reader clone but refuses their push with a message, recording nothing', async () => {
    const id = await createRepo(people[0], 'read-only');
    const seed = await localRepo('main', 1);
    await gitOk(seed, ['push', '-q', sshUrl('alice', 'read-only'), 'main'], sshEnv('alice'));

    const clone = path.join(work, `bob-${randomUUID()}`);
    await gitOk(work, ['clone', '-q', sshUrl('alice', 'read-only'), clone], sshEnv('bob'));
    writeFileSync(path.join(clone, 'bob.txt'), 'bob\n');
    await gitOk(clone, ['add', '.']);
    await gitOk(clone, ['commit', '-q', '-m', 'by bob']);
    const r = await git(clone, ['push', sshUrl('alice', 'read-only'), 'main'], sshEnv('bob'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('User bob is not allowed to push to alice/read-only');
    expect(await pushEvents(id)).toHaveLength(1);
  });

  it('refuses an unknown key, another login name, and repositories the user cannot see', async () => {
    await createRepo(people[0], 'closed');
    const unknown = await git(work, ['ls-remote', sshUrl('alice', 'closed')], sshEnv('carol'));
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/Permission denied \(publickey\)/);

    const wrongUser = await run('ssh', [...sshArgs('alice', transport.sshPort!), 'root@127.0.0.1', "git-upload-pack 'alice/closed.git'"]);
    expect(wrongUser.code).toBe(255);
    expect(wrongUser.stderr).toMatch(/Permission denied/);

    const missing = await git(work, ['ls-remote', sshUrl('alice', 'nothing-here')], sshEnv('alice'));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('Repository alice/nothing-here does not exist or you do not have access to it');
  });

  it('greets a shell login and refuses other commands with exit status 1', async () => {
    const port = transport.sshPort!;
    const hello = await run('ssh', [...sshArgs('alice', port), '-T', 'git@127.0.0.1']);
    expect(hello.code).toBe(0);
    expect(hello.stderr).toContain("Hi alice! You've successfully authenticated");
    const withPty = await run('ssh', [...sshArgs('alice', port), '-tt', 'git@127.0.0.1']);
    expect(withPty.code).toBe(0);
    expect(withPty.stdout + withPty.stderr).toContain("Hi alice! You've successfully authenticated");

    for (const command of ['ls -la', "git-upload-pack '../x'", "git-upload-pack '--upload-pack=evil'", "sh -c 'id'"]) {
      const r = await run('ssh', [...sshArgs('alice', port), 'git@127.0.0.1', command]);
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).toMatch(/^Cairn: Invalid (command|repository path)/m);
      expect(r.stdout, command).toBe('');
    }
  });

  it('refuses users without two-factor authentication when it is enforced', async () => {
    await createRepo(people[0], 'two-factor');
    const seed = await localRepo('main', 1);
    await gitOk(seed, ['push', '-q', sshUrl('alice', 'two-factor'), 'main'], sshEnv('alice'));
    const enforced = new GitSshServer({
      hostKey: await loadOrCreateHostKey(path.join(work, 'ssh2', 'host_ed25519')),
      serverUser: 'git',
      repoRoot,
      paths: {
        hooksDir: path.join(work, 'data', 'git-hooks'),
        journals: new PushJournals(path.join(work, 'data', 'push-journal'), app.get(PushRecorder).sink),
      },
      rpc: app.get(RpcClient),
      twoFactorPolicy: 'enforced',
    });
    const port = await enforced.listen(0, '127.0.0.1');
    try {
      const url = `ssh://git@127.0.0.1:${port}/alice/two-factor.git`;
      const refused = await git(work, ['ls-remote', url], sshEnv('alice'));
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(twoFactorRequiredMessage());
      // The same answer for a repository that does not exist: nothing leaks about which exist.
      const missing = await git(work, ['ls-remote', `ssh://git@127.0.0.1:${port}/alice/no-such-repo.git`], sshEnv('alice'));
      expect(missing.stderr).toContain(twoFactorRequiredMessage());
      const allowed = await git(work, ['ls-remote', url], sshEnv('dora'));
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stdout).toContain('refs/heads/main');
    } finally {
      await enforced.close();
    }
  });
});


describe('concurrent pushes', () => {
  it('record each push exactly, with only its own updates', async () => {
    const id = await createRepo(people[0], 'busy');
    const seed = await localRepo('main', 1);
    await gitOk(seed, [...asGateway(id), 'push', '-q', httpUrl('alice', 'busy'), 'main']);
    const base = await gitOk(seed, ['rev-parse', 'HEAD']);

    const branches = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
    const locals = await Promise.all(
      branches.map(async (b) => {
        const dir = path.join(work, `busy-${b}-${randomUUID()}`);
        await gitOk(work, [...asGateway(id), 'clone', '-q', httpUrl('alice', 'busy'), dir]);
        await gitOk(dir, ['checkout', '-q', '-b', b]);
        writeFileSync(path.join(dir, `${b}.txt`), `${b}\n`);
        await gitOk(dir, ['add', '.']);
        await gitOk(dir, ['commit', '-q', '-m', `on ${b}`]);
        return { branch: b, dir, head: await gitOk(dir, ['rev-parse', 'HEAD']) };
      }),
    );
    // Half over HTTP, half over SSH, all at once.
    await Promise.all(
      locals.map(({ branch, dir }, i) =>
        i % 2 === 0
          ? gitOk(dir, [...asGateway(id), 'push', '-q', httpUrl('alice', 'busy'), branch])
          : gitOk(dir, ['push', '-q', sshUrl('alice', 'busy'), branch], sshEnv('alice')),
      ),
    );

    const events = (await pushEvents(id)).slice(1);
    expect(events).toHaveLength(branches.length);
    const seen = events.map((e) => {
      expect(e.data.updates).toHaveLength(1);
      return e.data.updates[0];
    });
    for (const { branch, head } of locals) {
      const mine = seen.filter((u) => u.ref === `refs/heads/${branch}`);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ old: ZERO_SHA, new: head, totalCommits: 1 });
      expect(mine[0].commits.map((c) => c.message)).toEqual([`on ${branch}\n`]);
      expect(mine[0].commits[0].added).toEqual([`${branch}.txt`]);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(branches.length);
    void base;
  });
});


describe('commit-graph after pushes', () => {
  /** How many commits `git log -- <path>` met without a changed-path Bloom filter (0: the graph covers them all). */
  async function commitsWithoutFilter(bare: string, file: string): Promise<number> {
    const trace = path.join(work, `trace-${randomUUID()}.json`);
    await gitOk(undefined, [`--git-dir=${bare}`, 'log', '--format=%H', 'main', '--', file], { GIT_TRACE2_EVENT: trace });
    const event = readFileSync(trace, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { category?: string; key?: string; value?: { filter_not_present?: number } })
      .find((e) => e.category === 'bloom' && e.key === 'statistics');
    rmSync(trace);
    if (!event?.value) throw new Error('git used no commit-graph at all');
    return event.value.filter_not_present ?? 0;
  }

  it('is written in the background after pushes over HTTP and SSH, Bloom filters included', async () => {
    const id = await createRepo(people[0], 'graphed');
    const bare = repoStoragePath(repoRoot, 'alice', 'graphed');
    const maintainer = app.get(CommitGraphMaintainer);
    const local = await localRepo('main', 3);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'graphed'), 'main']);
    await maintainer.idle();
    expect(await commitGraphState(bare)).toBe('with-filters');
    expect(await commitsWithoutFilter(bare, 'f2.txt')).toBe(0);

    // A later push over SSH: its commits get a layer of their own.
    writeFileSync(path.join(local, 'f2.txt'), 'changed\n');
    await gitOk(local, ['commit', '-q', '-am', 'change f2']);
    await gitOk(local, ['push', '-q', sshUrl('alice', 'graphed'), 'main'], sshEnv('alice'));
    await maintainer.idle();
    expect(await commitsWithoutFilter(bare, 'f2.txt')).toBe(0);
    await gitOk(undefined, [`--git-dir=${bare}`, 'commit-graph', 'verify']);
  });

  it("caches the last commits of every path at a pushed branch's new tip", async () => {
    await createRepo(people[0], 'warmed');
    const bare = repoStoragePath(repoRoot, 'alice', 'warmed');
    const maintainer = app.get(CommitGraphMaintainer);
    const local = await localRepo('main', 3);
    mkdirSync(path.join(local, 'docs'));
    writeFileSync(path.join(local, 'docs', 'guide.md'), 'guide\n');
    await gitOk(local, ['add', '.']);
    await gitOk(local, ['commit', '-q', '-m', 'docs']);
    const tip = (await gitOk(local, ['rev-parse', 'HEAD'])).trim();
    await gitOk(local, ['push', '-q', sshUrl('alice', 'warmed'), 'main'], sshEnv('alice'));
    await maintainer.idle();
    const paths = ['f1.txt', 'f2.txt', 'f3.txt', 'docs', 'docs/guide.md'];
    const expected = await lastCommitsForPaths(bare, tip, paths, { cache: null });
    expect(expected.size).toBe(paths.length);
    for (const p of paths) expect(lastCommitCache.get(bare, tip, p), p).toEqual(expected.get(p));
  });
});


describe('server-owned refs', () => {
  it.each(['http', 'ssh'] as const)('refuses pushes to refs/pull/* (and other server refs) over %s, with a message', async (via) => {
    const name = `owned-${via}`;
    const id = await createRepo(people[0], name);
    const local = await localRepo('main', 2);
    const url = via === 'http' ? httpUrl('alice', name) : sshUrl('alice', name);
    const pre = via === 'http' ? asGateway(id) : [];
    const env = via === 'http' ? {} : sshEnv('alice');
    await gitOk(local, [...pre, 'push', '-q', url, 'main'], env);
    const bare = path.join(repoRoot, 'alice', `${name}.git`);
    const refs = async () => gitOk(undefined, ['--git-dir', bare, 'for-each-ref', '--format=%(refname)']);
    expect(await refs()).toBe('refs/heads/main');

    for (const target of ['refs/pull/1/head', 'refs/cairn/x', 'refs/keep-around/abc']) {
      const r = await git(local, [...pre, 'push', url, `main~1:${target}`, 'main~1:refs/heads/alongside'], env);
      expect(r.code, `${target}: ${r.stderr}`).not.toBe(0);
      expect(r.stderr).toContain(`remote: Cairn: ${target} is managed by the server and cannot be pushed to`);
      expect(r.stderr).toMatch(new RegExp(`\\[remote rejected\\] +main~1 -> ${target.replace(/\//g, '\\/')} \\(pre-receive hook declined\\)`));
    }
    // Deleting a server ref is refused too (the server made it, below).
    const head = await gitOk(local, ['rev-parse', 'main']);
    await updateRef(bare, pullHeadRef(1), head, undefined, 'cairn: pull request head');
    const deletion = await git(local, [...pre, 'push', url, ':refs/pull/1/head'], env);
    expect(deletion.code).not.toBe(0);
    expect(deletion.stderr).toContain('remote: Cairn: refs/pull/1/head is managed by the server');
    // Nothing moved (the whole push was refused), nothing was recorded but the first push.
    expect((await refs()).split('\n').sort()).toEqual(['refs/heads/main', 'refs/pull/1/head']);
    expect(await pushEvents(id)).toHaveLength(1);

    // Branches and tags still go through, and the pull ref the server set can be fetched.
    await gitOk(local, ['tag', 'v1', 'main~1']);
    await gitOk(local, [...pre, 'push', '-q', url, 'main~1:refs/heads/feature', 'v1'], env);
    expect((await refs()).split('\n').sort()).toEqual(['refs/heads/feature', 'refs/heads/main', 'refs/pull/1/head', 'refs/tags/v1']);
    expect((await pushEvents(id)).at(-1)!.data.updates.map((u) => u.ref).sort()).toEqual(['refs/heads/feature', 'refs/tags/v1']);
    const listed = await gitOk(local, [...pre, 'ls-remote', url, 'refs/pull/1/head'], env);
    expect(listed).toBe(`${head}\trefs/pull/1/head`);
  });
});

// ---- the push journal (issue 9, item 3) -----------------------------------------------------------------------------

describe('push journal', () => {
  const now = { quietMs: 0, replayEveryMs: 3_600_000, touchEveryMs: 3_600_000 };
  const journalRoot = () => path.join(work, `journal-${randomUUID()}`);

  it('keeps a push whose recording failed, and replays it exactly once (concurrent replays, copies)', async () => {
    const id = await createRepo(people[0], 'journal-failed');
    const root = journalRoot();
    const failing = new PushJournals(root, () => Promise.reject(new Error('database unavailable')), now);
    await failing.start();
    const server = new InternalGitHttpServer({
      repoRoot,
      internalToken: INTERNAL_TOKEN,
      paths: { hooksDir: path.join(work, 'data', 'git-hooks'), journals: failing },
    });
    const port = await server.listen(0, '127.0.0.1');
    try {
      const local = await localRepo('main', 2);
      await gitOk(local, ['branch', 'side']);
      // The client's push succeeds: the refs moved; only the recording failed.
      await gitOk(local, [...asGateway(id), 'push', '-q', `http://127.0.0.1:${port}/internal/git/alice/journal-failed`, 'main', 'side']);
    } finally {
      await server.close();
      await failing.stop();
    }
    expect(await pushEvents(id)).toHaveLength(0);
    const [entry] = readdirSync(root);
    expect(readdirSync(root)).toHaveLength(1);
    // A copy under the same id elsewhere: what a replay would find if the folder outlived its recording.
    const copy = journalRoot();
    cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });

    const sink = app.get(PushRecorder).sink;
    const a = new PushJournals(root, sink, now);
    const b = new PushJournals(root, sink, now);
    await Promise.all([a.replayQuiet(), b.replayQuiet()]);
    expect(readdirSync(root)).toEqual([]);
    await new PushJournals(copy, sink, now).replayQuiet();
    expect(readdirSync(copy)).toEqual([]);

    const events = await pushEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0].data.updates.map((u) => u.ref).sort()).toEqual(['refs/heads/main', 'refs/heads/side']);
    expect(events[0].data.pusher).toMatchObject({ id: 1 });
    const [mark] = await sql<{ n: number }>('SELECT count(*)::int AS n FROM repo.ref_update_journal WHERE id = $1', [entry]);
    expect(mark.n).toBe(1);
  });

  it('leaves a journal that is not quiet yet to its writer', async () => {
    const id = await createRepo(people[0], 'journal-busy');
    const root = journalRoot();
    const writer = new PushJournals(root, app.get(PushRecorder).sink, now);
    await writer.start();
    const journal = await writer.open({ repoId: id, dir: path.join(repoRoot, 'alice', 'journal-busy.git'), pusherId: 1, via: 'ssh' });
    const other = new PushJournals(root, app.get(PushRecorder).sink, { ...now, quietMs: 60_000 });
    await other.replayQuiet();
    expect(readdirSync(root)).toEqual([journal.id]);
    await writer.complete(journal);
    expect(readdirSync(root)).toEqual([]);
    await writer.stop();
  });

  it('settles updates git prepared but never reported by reading the repository, and ignores maintenance lines', async () => {
    const id = await createRepo(people[0], 'journal-settle');
    const local = await localRepo('main', 2);
    await gitOk(local, [...asGateway(id), 'push', '-q', httpUrl('alice', 'journal-settle'), 'main']);
    const bare = path.join(repoRoot, 'alice', 'journal-settle.git');
    const [first, second] = (await gitOk(local, ['rev-list', '--reverse', 'main'])).split('\n');
    // What a receive-pack killed mid-push leaves: `landed` moved on disk before it died, `never` did not.
    await updateRef(bare, 'refs/heads/landed', second);
    const root = journalRoot();
    const journalId = randomUUID();
    mkdirSync(path.join(root, journalId), { recursive: true });
    writeFileSync(path.join(root, journalId, 'context.json'), JSON.stringify({ repoId: id, dir: bare, pusherId: 3, via: 'http' }));
    writeFileSync(path.join(root, journalId, 'pid'), '4242');
    writeFileSync(path.join(root, journalId, 'refs'), [
      `4242 prepared ${ZERO_SHA} ${first} refs/heads/done`,
      `4242 committed ${ZERO_SHA} ${first} refs/heads/done`,
      `4242 prepared ${ZERO_SHA} ${second} refs/heads/landed`,
      `4242 prepared ${ZERO_SHA} ${first} refs/heads/aborted`,
      `4242 aborted ${ZERO_SHA} ${first} refs/heads/aborted`,
      `4243 committed ${ZERO_SHA} ${first} refs/heads/main`, // pack-refs of a gc receive-pack started
      `4242 prepared ${ZERO_SHA} ${second} refs/heads/never`,
      `4242 prepared ${ZERO_SHA} ${first} refs/heads/torn`, // cut short: no newline
    ].join('\n'));
    await new PushJournals(root, app.get(PushRecorder).sink, now).replayQuiet();
    const events = await pushEvents(id);
    expect(events).toHaveLength(2);
    expect(events[1].data.updates.map((u) => [u.ref, u.new])).toEqual([['refs/heads/done', first], ['refs/heads/landed', second]]);
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses ref updates once the journal is gone (a replay claimed it), so nothing moves unrecorded', async () => {
    const id = await createRepo(people[0], 'journal-gone');
    const local = await localRepo('main', 1);
    const root = journalRoot();
    const journals = new PushJournals(root, app.get(PushRecorder).sink, now);
    await journals.start();
    // A journal whose folder disappears between opening and the push's ref update.
    const original = journals.open.bind(journals);
    journals.open = async (context) => {
      const j = await original(context);
      rmSync(j.path, { recursive: true, force: true });
      return j;
    };
    const server = new InternalGitHttpServer({
      repoRoot,
      internalToken: INTERNAL_TOKEN,
      paths: { hooksDir: path.join(work, 'data', 'git-hooks'), journals },
    });
    const port = await server.listen(0, '127.0.0.1');
    try {
      const r = await git(local, [...asGateway(id), 'push', `http://127.0.0.1:${port}/internal/git/alice/journal-gone`, 'main']);
      // git 2.39's receive-pack ends the push at the refused update ("ref updates aborted by hook").
      expect(r.code, r.stderr).not.toBe(0);
    } finally {
      await server.close();
      await journals.stop();
    }
    const bare = path.join(repoRoot, 'alice', 'journal-gone.git');
    expect(await gitOk(undefined, ['--git-dir', bare, 'for-each-ref'])).toBe('');
    expect(await pushEvents(id)).toHaveLength(0);
  });
});

describe('push journal leftovers', () => {
  it('removes a journal cut short before its receive-pack started, and sets aside one with refs but no context', async () => {
    const root = path.join(work, `journal-${randomUUID()}`);
    const [empty, broken] = [randomUUID(), randomUUID()];
    mkdirSync(path.join(root, empty), { recursive: true });
    mkdirSync(path.join(root, broken), { recursive: true });
    writeFileSync(path.join(root, broken, 'context.json'), '{"repoId":');
    writeFileSync(path.join(root, broken, 'refs'), `1 committed ${ZERO_SHA} ${'a'.repeat(40)} refs/heads/x\n`);
    await new PushJournals(root, app.get(PushRecorder).sink, { quietMs: 0, replayEveryMs: 3_600_000, touchEveryMs: 3_600_000 }).replayQuiet();
    expect(readdirSync(root)).toEqual([`${broken}.unreadable`]);
  });
});
