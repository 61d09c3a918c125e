// Gateway side of git smart HTTP: real routes and RPC client, stand-in responders, a CGI `git http-backend`, real git.
import 'reflect-metadata';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode, IdentitySubjects, RepoSubjects,
  type AccessLevel, type ActorDto, type RepoAccessReply, type ResolveCredentialsReply, type UserDto,
} from '@cairn/contracts';
import { DomainErrorFilter, RpcClient, commonSettings, loadSettings } from '@cairn/platform';
import { gatewaySettingsSpec, type GatewaySettings } from '../config/gateway-settings.js';
import { GitHttpProxy, mountGitHttpRoutes } from './git-http.routes.js';
import { freePort, startPrivateNats, type PrivateNats } from '../../../../test/support/integration.js';

const INTERNAL_TOKEN = `it-gw-${randomUUID()}`;


interface Person {
  id: number;
  login: string;
  password: string;
  hasTwoFactor?: boolean;
}
const alice: Person = { id: 1, login: 'alice', password: 'alice-password' };
const bob: Person = { id: 2, login: 'bob', password: 'bob-password' };
const carol: Person = { id: 3, login: 'carol', password: 'carol-password' };
const people = [alice, bob, carol];
const tokens = new Map<string, { person: Person; scopes: string[] }>([
  [`cairn_${'a'.repeat(40)}`, { person: alice, scopes: ['write:repository'] }],
  [`cairn_${'r'.repeat(40)}`, { person: alice, scopes: ['read:repository'] }],
  [`cairn_${'u'.repeat(40)}`, { person: alice, scopes: ['read:user'] }],
]);

interface RepoRule {
  id: number;
  private: boolean;
  access: Record<number, AccessLevel>;
}
const rules: Record<string, RepoRule> = {
  'alice/public': { id: 11, private: false, access: { 1: 'owner', 2: 'read' } },
  'alice/secret': { id: 12, private: true, access: { 1: 'owner', 2: 'read' } },
};

const actorOf = (p: Person, via: ActorDto['via'], scopes = ['all']): ActorDto => ({
  id: p.id, login: p.login, isAdmin: false, scopes, hasTwoFactor: p.hasTwoFactor ?? false, via,
});

class FakeResponders {
  auth(req: { kind: 'token' | 'password'; secret: string; username?: string }): ResolveCredentialsReply {
    if (req.kind === 'token') {
      const t = tokens.get(req.secret);
      if (!t) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'invalid token');
      return { actor: actorOf(t.person, 'token', t.scopes), user: {} as UserDto };
    }
    const p = people.find((x) => x.login === req.username && x.password === req.secret);
    if (!p) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'user does not exist or password is wrong');
    return { actor: actorOf(p, 'password'), user: {} as UserDto };
  }

  access(req: { actor: ActorDto | null; owner: string; repo: string }): RepoAccessReply {
    const key = `${req.owner}/${req.repo}`.toLowerCase();
    const rule = rules[key];
    if (!rule) throw DomainError.notFound('not found');
    const level = (req.actor && rule.access[req.actor.id]) || (rule.private ? 'none' : 'read');
    if (level === 'none') throw DomainError.notFound('not found');
    const [ownerName, name] = key.split('/');
    return {
      repo: { id: rule.id, ownerId: 1, ownerName, name, defaultBranch: 'main', private: rule.private },
      access: level,
    };
  }
}
const fakePatterns: Record<string, keyof FakeResponders> = {
  [IdentitySubjects.authResolve]: 'auth',
  [RepoSubjects.accessResolve]: 'access',
};
for (const [subject, method] of Object.entries(fakePatterns)) {
  const proto = FakeResponders.prototype;
  MessagePattern(subject)(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
}
Controller()(FakeResponders);
class FakeModule {}
Module({ controllers: [FakeResponders] })(FakeModule);


const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];

function startBackend(projectRoot: string): Promise<Server> {
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.headers['x-cairn-internal-token'] !== INTERNAL_TOKEN) {
      res.writeHead(401).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://internal');
    const m = /^\/internal\/git\/([^/]+)\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const login = req.headers['x-cairn-actor-login'];
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/${m[1]}/${m[2]}.git/${m[3]}`,
        REQUEST_METHOD: req.method,
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        ...(typeof login === 'string' ? { REMOTE_USER: login } : {}),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim().toLowerCase();
        const value = line.slice(i + 1).trim();
        if (name === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}


let nats: PrivateNats;
let work: string;
let fakeApp: INestMicroservice;
let rpc: RpcClient;
let backend: Server;
let gateway: FastifyInstance;
let base: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function git(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: path.join(work, 'home'),
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_TERMINAL_PROMPT: '0',
          GIT_ASKPASS: '',
          GIT_AUTHOR_NAME: 'A',
          GIT_AUTHOR_EMAIL: 'a@example.com',
          GIT_COMMITTER_NAME: 'A',
          GIT_COMMITTER_EMAIL: 'a@example.com',
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

async function gitOk(cwd: string, args: string[]): Promise<string> {
  const r = await git(cwd, args);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout.trim();
}

function url(repo: string, user?: string, secret?: string, suffix = '.git'): string {
  const auth = user !== undefined ? `${encodeURIComponent(user)}:${encodeURIComponent(secret ?? '')}@` : '';
  return `http://${auth}${base.slice('http://'.length)}/${repo}${suffix}`;
}

async function newCommit(dir: string, file: string): Promise<string> {
  writeFileSync(path.join(dir, file), `${file} ${randomUUID()}\n`);
  await gitOk(dir, ['add', '.']);
  await gitOk(dir, ['commit', '-q', '-m', file]);
  return gitOk(dir, ['rev-parse', 'HEAD']);
}

function gatewaySettings(overrides: Partial<GatewaySettings> = {}): GatewaySettings {
  return { ...loadSettings(gatewaySettingsSpec, {}), ...overrides };
}

async function startGateway(settings: GatewaySettings): Promise<{ app: FastifyInstance; base: string }> {
  const common = {
    ...loadSettings(commonSettings, {}),
    repoInternalUrl: `http://127.0.0.1:${(backend.address() as AddressInfo).port}`,
    internalToken: INTERNAL_TOKEN,
  };
  const app = Fastify();
  mountGitHttpRoutes(app, new GitHttpProxy(rpc, settings, common));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'cairn-it-githttp-'));
  mkdirSync(path.join(work, 'home'));
  const projectRoot = path.join(work, 'repos');
  for (const repo of Object.keys(rules)) {
    const dir = path.join(projectRoot, `${repo}.git`);
    mkdirSync(dir, { recursive: true });
    await gitOk(work, ['init', '-q', '--bare', '--initial-branch=main', dir]);
  }
  // Seed both repositories with one commit (pushed straight into the bare repositories).
  const seed = mkdtempSync(path.join(work, 'seed-'));
  await gitOk(seed, ['init', '-q', '--initial-branch=main']);
  await newCommit(seed, 'readme');
  for (const repo of Object.keys(rules)) await gitOk(seed, ['push', '-q', path.join(projectRoot, `${repo}.git`), 'main']);

  nats = await startPrivateNats();
  const natsUrl = nats.url;
  fakeApp = await NestFactory.createMicroservice<MicroserviceOptions>(FakeModule, {
    transport: Transport.NATS,
    options: { servers: [natsUrl], queue: 'fake' },
    logger: false,
  });
  fakeApp.useGlobalFilters(new DomainErrorFilter());
  await fakeApp.listen();
  rpc = new RpcClient(natsUrl, 10_000, 'gateway-it');
  await rpc.connect();

  backend = await startBackend(projectRoot);
  ({ app: gateway, base } = await startGateway(gatewaySettings()));
});

afterAll(async () => {
  await gateway?.close();
  await new Promise((r) => (backend ? backend.close(r) : r(undefined)));
  await rpc?.close().catch(() => undefined);
  await fakeApp?.close().catch(() => undefined);
  await nats?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});


describe('git smart HTTP at the gateway', () => {
  it('lets anyone clone a public repository, with or without .git, and forwards only internal headers', async () => {
    seen.length = 0;
    for (const suffix of ['.git', '']) {
      const dir = path.join(work, `anon-${randomUUID()}`);
      await gitOk(work, ['clone', '-q', url('alice/public', undefined, undefined, suffix), dir]);
      expect(readFileSync(path.join(dir, 'readme'), 'utf8')).toMatch(/^readme /);
    }
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const s of seen) {
      expect(s.url).toMatch(/^\/internal\/git\/alice\/public\/(info\/refs\?service=git-upload-pack|git-upload-pack)$/);
      expect(s.headers['x-cairn-repo-id']).toBe('11');
      expect(s.headers['x-cairn-actor-id']).toBeUndefined();
      expect(s.headers.authorization).toBeUndefined();
    }
    // Protocol v2 (git's default) reaches the backend.
    expect(seen.some((s) => s.headers['git-protocol'] === 'version=2')).toBe(true);
  });

  it('asks anonymous callers for credentials for private repositories and for pushes', async () => {
    for (const target of [
      `${base}/alice/secret.git/info/refs?service=git-upload-pack`,
      `${base}/alice/public.git/info/refs?service=git-receive-pack`,
      `${base}/nobody/nothing.git/info/refs?service=git-upload-pack`,
    ]) {
      const res = await fetch(target);
      expect(res.status, target).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Cairn"');
    }
    const r = await git(work, ['clone', '-q', url('alice/secret'), path.join(work, `x-${randomUUID()}`)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/could not read Username|Authentication failed/);
  });

  it('clones and pushes with a password or a token as the Basic password, passing the actor on', async () => {
    const dir = path.join(work, `alice-${randomUUID()}`);
    await gitOk(work, ['clone', '-q', url('alice/secret', 'alice', alice.password), dir]);
    const head = await newCommit(dir, 'by-password');
    seen.length = 0;
    await gitOk(dir, ['push', '-q', url('alice/secret', 'alice', alice.password), 'main']);
    const post = seen.find((s) => s.method === 'POST');
    expect(post?.url).toBe('/internal/git/alice/secret/git-receive-pack');
    expect(post?.headers).toMatchObject({ 'x-cairn-repo-id': '12', 'x-cairn-actor-id': '1', 'x-cairn-actor-login': 'alice' });
    expect(post?.headers['x-cairn-internal-token']).toBe(INTERNAL_TOKEN);

    const token = `cairn_${'a'.repeat(40)}`;
    const head2 = await newCommit(dir, 'by-token');
    await gitOk(dir, ['push', '-q', url('alice/secret', 'anything', token), 'main']);
    const remote = await gitOk(work, ['ls-remote', url('alice/secret', 'alice', alice.password), 'refs/heads/main']);
    expect(remote.split('\t')[0]).toBe(head2);
    expect(head2).not.toBe(head);
  });

  it('refuses wrong credentials with 401, a read-only push with 403, an invisible repository with 404', async () => {
    const wrong = await git(work, ['ls-remote', url('alice/secret', 'alice', 'wrong')]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/Authentication failed/);

    const dir = path.join(work, `bob-${randomUUID()}`);
    await gitOk(work, ['clone', '-q', url('alice/secret', 'bob', bob.password), dir]);
    await newCommit(dir, 'by-bob');
    const push = await git(dir, ['push', url('alice/secret', 'bob', bob.password), 'main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403/);

    const res = await fetch(`${base}/alice/secret.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`carol:${carol.password}`).toString('base64')}` },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('checks token scopes: read:repository fetches but cannot push, other scopes cannot fetch', async () => {
    const readToken = `cairn_${'r'.repeat(40)}`;
    const dir = path.join(work, `scoped-${randomUUID()}`);
    await gitOk(work, ['clone', '-q', url('alice/secret', 'alice', readToken), dir]);
    await newCommit(dir, 'scoped');
    const push = await git(dir, ['push', url('alice/secret', 'alice', readToken), 'main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403/);
    const res = await fetch(`${base}/alice/public.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `token cairn_${'u'.repeat(40)}` },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('required=[read:repository]');
  });

  it('refuses the dumb protocol and answers 503 when repo-service is unreachable', async () => {
    expect((await fetch(`${base}/alice/public.git/info/refs`)).status).toBe(403);
    const port = await freePort();
    const down = Fastify();
    const common = { ...loadSettings(commonSettings, {}), repoInternalUrl: `http://127.0.0.1:${port}`, internalToken: INTERNAL_TOKEN };
    mountGitHttpRoutes(down, new GitHttpProxy(rpc, gatewaySettings(), common));
    await down.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${(down.server.address() as AddressInfo).port}/alice/public.git/info/refs?service=git-upload-pack`);
      expect(res.status).toBe(503);
    } finally {
      await down.close();
    }
  });

  it('applies REQUIRE_SIGNIN_VIEW and the two-factor policy', async () => {
    const strict = await startGateway(gatewaySettings({ requireSigninView: 'strict', twoFactorAuth: 'enforced' }));
    try {
      const anon = await fetch(`${strict.base}/alice/public.git/info/refs?service=git-upload-pack`);
      expect(anon.status).toBe(401);
      const noTwoFactor = await fetch(`${strict.base}/alice/public.git/info/refs?service=git-upload-pack`, {
        headers: { authorization: `Basic ${Buffer.from(`alice:${alice.password}`).toString('base64')}` },
      });
      expect(noTwoFactor.status).toBe(404);
    } finally {
      await strict.app.close();
    }
  });
});
