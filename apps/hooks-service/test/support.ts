// Shared by hooks-service integration tests: private database, NATS and Redis prefix, the service, a receiver.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { verify } from '@octokit/webhooks-methods';
import pg from 'pg';
import type { DomainEvent, EventSubject } from '@cairn/contracts';
import {
  DomainErrorFilter, createRpcValidationPipe, ensureEventsStream, eventEnvelope, publishEvent,
} from '@cairn/platform';
import { createScratchDatabase, deleteRedisKeys, startPrivateNats } from '../../../test/support/integration.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PG_SERVER = process.env.CAIRN_IT_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.CAIRN_IT_REDIS ?? 'redis://127.0.0.1:6379';

/** Polls until `fn` returns a truthy value (a bounded wait for an eventual state, not a timing assertion). */
export async function waitFor<T>(fn: () => Promise<T> | T, what: string, timeoutMs = 30_000, everyMs = 50): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface Infra {
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
  queuePrefix: string;
  env: Record<string, string>;
  sql<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<R[]>;
  /** Publishes an event of a contract subject; the payload is a test fixture (often only the fields a test reads). */
  publish(type: EventSubject, data: unknown): Promise<DomainEvent>;
  close(): Promise<void>;
}

export async function startInfra(area: string, extraEnv: Record<string, string> = {}): Promise<Infra> {
  const id = randomUUID().replaceAll('-', '').slice(0, 12);
  const db = await createScratchDatabase(area, { services: ['hooks'], server: PG_SERVER });
  const databaseUrl = db.url;

  const nats = await startPrivateNats();
  const natsUrl = nats.url;
  const nc: NatsConnection = await waitFor(() => connect({ servers: natsUrl }), 'nats-server', 20_000, 100);
  await ensureEventsStream(nc);
  const js = jetstream(nc);

  const queuePrefix = `cairn-it-${area}-${id}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, options: '-c search_path=hooks' });
  const env = {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    REDIS_URL,
    RUN_MODE: 'test',
    CAIRN__QUEUE__PREFIX: queuePrefix,
    CAIRN__SERVER__ROOT_URL: 'http://cairn.test/',
    CAIRN__SECURITY__SECRET_KEY: 'integration-test-secret-key',
    CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
    CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms',
    CAIRN__WEBHOOK__RETRY_MAX_DELAY: '1s',
    CAIRN__WEBHOOK__DELIVER_TIMEOUT: '5s',
    ...extraEnv,
  };
  return {
    databaseUrl,
    natsUrl,
    redisUrl: REDIS_URL,
    queuePrefix,
    env,
    sql: async (text, params) => (await pool.query(text, params)).rows,
    publish: async (type, data) => {
      const event = eventEnvelope(type, data);
      await publishEvent(js, event);
      return event;
    },
    close: async () => {
      await pool.end().catch(() => undefined);
      await nc.drain().catch(() => undefined);
      await nats.stop();
      await deleteRedisKeys(REDIS_URL, `${queuePrefix}:`);
      await db.drop();
    },
  };
}

/** Starts hooks-service in this process (as `bootstrapService` does, minus signal handling). */
export async function startInProcess(infra: Infra, env: Record<string, string> = {}): Promise<INestMicroservice> {
  Object.assign(process.env, infra.env, env);
  const { AppModule } = await import('../src/app.module.js');
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, {
    transport: Transport.NATS,
    options: { servers: [infra.natsUrl], queue: 'hooks-service' },
    logger: ['error'],
  });
  app.useGlobalPipes(createRpcValidationPipe());
  app.useGlobalFilters(new DomainErrorFilter());
  await app.listen();
  return app;
}

/** Starts the built service (`dist/main.js`) as a child process; resolves once it reports ready. */
export async function startChild(infra: Infra, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/hooks-service/dist/main.js')], {
    cwd: ROOT,
    // A free ops port: several copies run at once.
    env: { ...process.env, ...infra.env, CAIRN__OPS__PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      if (output.includes('hooks-service ready')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`hooks-service exited with ${code}:\n${output.slice(-2000)}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Checked with @octokit/webhooks-methods (`X-Hub-Signature-256`). */
  octokitValid: boolean;
  /** Checked with a plain HMAC-SHA256 (`X-Gitea-Signature`) and HMAC-SHA1 (`X-Hub-Signature`). */
  hmacValid: boolean;
}

/** What the receiver answers for the n-th request (0-based) of a path. */
export type Responder = (n: number, req: ReceivedRequest) => { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

const answerOk: Responder = () => ({ status: 200, body: 'ok' });

export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly responders = new Map<string, Responder>();
  private readonly counts = new Map<string, number>();
  private server?: http.Server;
  port = 0;

  constructor(private readonly secret: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  on(pathname: string, responder: Responder): void {
    this.responders.set(pathname, responder);
  }

  at(pathname: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.url === pathname);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const body = raw.toString('utf8');
        const sig256 = String(req.headers['x-hub-signature-256'] ?? '');
        const hmac256 = createHmac('sha256', this.secret).update(raw).digest('hex');
        const hmac1 = createHmac('sha1', this.secret).update(raw).digest('hex');
        const rec: ReceivedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
          octokitValid: sig256 ? await verify(this.secret, body, sig256) : false,
          hmacValid: req.headers['x-gitea-signature'] === hmac256 && req.headers['x-hub-signature'] === `sha1=${hmac1}`,
        };
        this.requests.push(rec);
        const n = this.counts.get(rec.url) ?? 0;
        this.counts.set(rec.url, n + 1);
        const answer = (this.responders.get(rec.url) ?? answerOk)(n, rec);
        const send = () => {
          res.writeHead(answer.status, answer.headers ?? {});
          res.end(answer.body ?? '');
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    this.server.keepAliveTimeout = 1_000;
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}

export function pushEventData(opts: {
  repoId: number;
  ownerId: number;
  ownerName?: string;
  name?: string;
  ref?: string;
  old?: string;
  new?: string;
  commits?: number;
}) {
  const ownerName = opts.ownerName ?? 'acme';
  const name = opts.name ?? `repo${opts.repoId}`;
  const fullName = `${ownerName}/${name}`;
  const html = `http://cairn.test/${fullName}`;
  const n = opts.commits ?? 2;
  const sha = (i: number) => createHmac('sha1', 'x').update(`${opts.repoId}-${i}`).digest('hex');
  const commits = Array.from({ length: n }, (_, i) => ({
    id: i === 0 && opts.new ? opts.new : sha(i),
    message: `commit ${n - i}\n\nbody`,
    url: `${html}/commit/${sha(i)}`,
    author: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
    committer: { name: 'Alice', email: 'alice@example.com', username: 'alice' },
    timestamp: '2025-06-01T12:00:00Z',
    added: i === 0 ? ['src/new.ts'] : [],
    removed: [],
    modified: ['README.md'],
  }));
  const user = {
    id: 5, login: 'alice', login_name: '', source_id: 0, full_name: 'Alice', email: 'alice@example.com',
    avatar_url: 'http://cairn.test/avatars/5', html_url: 'http://cairn.test/alice', language: '', is_admin: false,
    last_login: '2025-06-01T12:00:00Z', created: '2025-01-01T00:00:00Z', restricted: false, active: true,
    prohibit_login: false, location: '', website: '', description: '', visibility: 'public', followers_count: 0,
    following_count: 0, starred_repos_count: 0, username: 'alice',
  };
  return {
    repository: {
      id: opts.repoId,
      ownerId: opts.ownerId,
      ownerName,
      ownerKind: 'organization',
      name,
      fullName,
      private: false,
      defaultBranch: 'main',
      json: {
        id: opts.repoId,
        owner: { id: opts.ownerId, login: ownerName, username: ownerName },
        name,
        full_name: fullName,
        private: false,
        html_url: html,
        clone_url: `${html}.git`,
        default_branch: 'main',
      },
    },
    pusher: user,
    updates: [
      {
        ref: opts.ref ?? 'refs/heads/main',
        old: opts.old ?? sha(100),
        new: opts.new ?? commits[0]?.id ?? sha(0),
        commits,
        totalCommits: n,
      },
    ],
  };
}
