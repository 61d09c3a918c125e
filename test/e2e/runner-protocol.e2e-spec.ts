/**
 * Gitea's runner protocol (Connect RPC at `/api/actions`) through the gateway, with a Connect client generated from the
 * same .proto files, in both encodings (JSON and binary protobuf): Ping, Register with valid / unknown / invalidated
 * registration tokens, Declare, the FetchTask long-poll as a heartbeat (online while polling, offline after
 * `[actions] RUNNER_OFFLINE_TIME` without polls), UpdateTask / UpdateLog for the runner's own task (busy while it runs),
 * unknown and foreign tasks refused, deleted and ephemeral runners, h2c on runners-service's internal port, and the
 * bytes of one request against a golden message made by another protobuf implementation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { create, fromJsonString, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PingService } from '../../apps/runners-service/src/protocol/gen/ping/v1/services_pb.js';
import {
  LogRowSchema, RegisterRequestSchema, Result, TaskStateSchema,
} from '../../apps/runners-service/src/protocol/gen/runner/v1/messages_pb.js';
import { RunnerService } from '../../apps/runners-service/src/protocol/gen/runner/v1/services_pb.js';
import { http, type Account } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/ok/runner-protocol');
const OFFLINE_TIME_MS = 2_000;

let suite: TestSuite;
let db: pg.Client;
let admin: Account;

type Encoding = 'json' | 'binary';
const ENCODINGS: Encoding[] = ['json', 'binary'];

function transport(baseUrl: string, encoding: Encoding, httpVersion: '1.1' | '2' = '1.1') {
  return createConnectTransport({ baseUrl, httpVersion, useBinaryFormat: encoding === 'binary' });
}

function runnerClient(encoding: Encoding, baseUrl = `${suite.baseUrl}/api/actions`): Client<typeof RunnerService> {
  return createClient(RunnerService, transport(baseUrl, encoding));
}

interface Registered {
  id: number;
  uuid: string;
  token: string;
  client: Client<typeof RunnerService>;
  /** Call options carrying the runner's credentials (Gitea's headers). */
  auth: { headers: Record<string, string> };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A registration token of a scope, as the management API stores it (hashed; the sealed copy is not read here). */
async function registrationToken(scope: { ownerId?: number; repoId?: number }, active = true): Promise<string> {
  const token = randomBytes(20).toString('hex');
  await db.query(
    `INSERT INTO runners.runner_registration_tokens (owner_id, repo_id, token_hash, token_sealed, is_active, updated_at)
     VALUES ($1, $2, $3, 'not-read-by-this-test', $4, now())`,
    [scope.ownerId ?? 0, scope.repoId ?? 0, sha256(token), active],
  );
  return token;
}

async function register(encoding: Encoding, options: { name?: string; ephemeral?: boolean; scope?: { ownerId?: number; repoId?: number } } = {}): Promise<Registered> {
  const client = runnerClient(encoding);
  const res = await client.register({
    name: options.name ?? `runner-${encoding}-${randomBytes(3).toString('hex')}`,
    token: await registrationToken(options.scope ?? {}),
    version: 'v0.2.11',
    labels: ['ubuntu-latest:docker://node:20-bullseye'],
    ephemeral: options.ephemeral ?? false,
  });
  const runner = res.runner!;
  return {
    id: Number(runner.id),
    uuid: runner.uuid,
    token: runner.token,
    client,
    auth: { headers: { 'x-runner-uuid': runner.uuid, 'x-runner-token': runner.token } },
  };
}

interface RunnerRow {
  id: number;
  uuid: string;
  name: string;
  owner_id: number;
  repo_id: number;
  version: string;
  labels: string[];
  token_hash: string;
  ephemeral: boolean;
  last_online: Date | null;
  last_active: Date | null;
  deleted_at: Date | null;
}

async function runnerRow(id: number): Promise<RunnerRow> {
  const { rows } = await db.query<RunnerRow>('SELECT * FROM runners.runners WHERE id = $1', [id]);
  return rows[0];
}

/** The runner's state as the management API shows it (`GET /admin/actions/runners/{id}`): offline, busy or idle. */
async function liveness(id: number): Promise<'offline' | 'active' | 'idle'> {
  const res = await http(suite).get(`/admin/actions/runners/${id}`, { basic: admin });
  expect(res.status, res.text).toBe(200);
  if (res.body.status === 'offline') return 'offline';
  return res.body.busy ? 'active' : 'idle';
}

async function insertTask(runnerId: number, status = 'waiting'): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO runners.tasks (runner_id, status, updated_at) VALUES ($1, $2, now()) RETURNING id`,
    [runnerId, status],
  );
  return rows[0].id;
}

async function refusal(call: Promise<unknown>): Promise<ConnectError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConnectError);
  return err as ConnectError;
}

beforeAll(async () => {
  suite = await startTestSuite({
    env: {
      CAIRN__ACTIONS__RUNNER_OFFLINE_TIME: `${OFFLINE_TIME_MS}ms`,
      CAIRN__ACTIONS__FETCH_TASK_WAIT: '200ms',
    },
  });
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  admin = await suite.createAdmin();
}, 180_000);

afterAll(async () => {
  await db?.end();
  await suite?.stop();
});

describe.each(ENCODINGS)('runner protocol through the gateway (%s)', (encoding) => {
  it('answers Ping', async () => {
    const ping = createClient(PingService, transport(`${suite.baseUrl}/api/actions`, encoding));
    const res = await ping.ping({ data: 'runner' });
    expect(res.data).toBe('Hello, runner!');
  });

  it('registers a runner in the scope of its registration token, with a credential stored hashed', async () => {
    const client = runnerClient(encoding);
    const token = await registrationToken({ ownerId: 42 });
    const res = await client.register({ name: 'builder', token, version: 'v0.2.11', labels: ['linux', 'x64'] });
    const runner = res.runner!;
    expect(runner.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(runner.token).toMatch(/^[0-9a-f]{40}$/);
    expect(runner).toMatchObject({ name: 'builder', version: 'v0.2.11', labels: ['linux', 'x64'], ephemeral: false });

    const row = await runnerRow(Number(runner.id));
    expect(row).toMatchObject({ uuid: runner.uuid, owner_id: 42, repo_id: 0, labels: ['linux', 'x64'], deleted_at: null });
    expect(row.token_hash).toBe(sha256(runner.token));
    // Registering does not count as a heartbeat (Gitea's interceptor skips Register).
    expect(row.last_online).toBeNull();
    const events = await db.query<{ payload: { data: { runner: { id: number; uuid: string; ownerId: number }; actorId: null } } }>(
      `SELECT payload FROM runners.outbox_events WHERE subject = 'runners.evt.runner.registered'`,
    );
    expect(events.rows.map((e) => e.payload.data)).toContainEqual({
      runner: expect.objectContaining({ id: row.id, uuid: row.uuid, ownerId: 42, repoId: 0 }),
      actorId: null,
    });
  });

  it('refuses unknown and invalidated registration tokens, and a missing name', async () => {
    const client = runnerClient(encoding);
    const unknown = await refusal(client.register({ name: 'x', token: randomBytes(20).toString('hex') }));
    expect(unknown.code).toBe(Code.Unauthenticated);
    expect(unknown.rawMessage).toBe('runner registration token not found');

    const inactive = await refusal(client.register({ name: 'x', token: await registrationToken({}, false) }));
    expect(inactive.code).toBe(Code.Unauthenticated);
    expect(inactive.rawMessage).toMatch(/invalidated/);

    const nameless = await refusal(client.register({ name: '', token: await registrationToken({}) }));
    expect(nameless.code).toBe(Code.InvalidArgument);
  });

  it('takes the version and labels a runner declares', async () => {
    const r = await register(encoding);
    const res = await r.client.declare({ version: 'v0.3.0', labels: ['gpu', 'linux'] }, r.auth);
    expect(res.runner).toMatchObject({ uuid: r.uuid, version: 'v0.3.0', labels: ['gpu', 'linux'] });
    expect(res.runner!.token).toBe('');
    expect(await runnerRow(r.id)).toMatchObject({ version: 'v0.3.0', labels: ['gpu', 'linux'] });
  });

  it('answers FetchTask with no task, and keeps a polling runner online until it stops polling', async () => {
    const r = await register(encoding);
    expect(await liveness(r.id)).toBe('offline');
    const first = await r.client.fetchTask({ tasksVersion: 0n }, r.auth);
    expect(first.task).toBeUndefined();
    await waitFor(async () => (await liveness(r.id)) === 'idle', 'the runner to be online after its first poll');

    // Poll past the offline time: the throttled liveness writes keep it online all along.
    const started = (await runnerRow(r.id)).last_online!.getTime();
    for (;;) {
      await r.client.fetchTask({ tasksVersion: 0n }, r.auth);
      expect(await liveness(r.id)).toBe('idle');
      if ((await runnerRow(r.id)).last_online!.getTime() - started > OFFLINE_TIME_MS) break;
    }
    await waitFor(async () => (await liveness(r.id)) === 'offline', 'the runner to turn offline without polls');
  });

  it('stores state, outputs and logs of its own task, busy while it runs', async () => {
    const r = await register(encoding);
    const taskId = await insertTask(r.id);
    const running = await r.client.updateTask(
      { state: create(TaskStateSchema, { id: BigInt(taskId), result: Result.UNSPECIFIED, startedAt: timestampFromDate(new Date()) }), outputs: { first: 'one' } },
      r.auth,
    );
    expect(running.state).toMatchObject({ id: BigInt(taskId), result: Result.UNSPECIFIED });
    expect(running.sentOutputs).toEqual(['first']);
    expect((await db.query('SELECT status, started_at FROM runners.tasks WHERE id = $1', [taskId])).rows[0]).toMatchObject({ status: 'running' });
    expect(await liveness(r.id)).toBe('active');

    const rows = ['line 0', 'line 1', 'line 2'].map((content) => create(LogRowSchema, { time: timestampFromDate(new Date()), content }));
    expect((await r.client.updateLog({ taskId: BigInt(taskId), index: 0n, rows: rows.slice(0, 2) }, r.auth)).ackIndex).toBe(2n);
    // Rows sent again with new ones are stored once; a gap is answered with the length so far.
    expect((await r.client.updateLog({ taskId: BigInt(taskId), index: 1n, rows: rows.slice(1) }, r.auth)).ackIndex).toBe(3n);
    expect((await r.client.updateLog({ taskId: BigInt(taskId), index: 7n, rows }, r.auth)).ackIndex).toBe(3n);
    const logs = await db.query<{ index: number; content: string }>('SELECT index, content FROM runners.task_logs WHERE task_id = $1 ORDER BY index', [taskId]);
    expect(logs.rows).toEqual([{ index: 0, content: 'line 0' }, { index: 1, content: 'line 1' }, { index: 2, content: 'line 2' }]);

    const done = await r.client.updateTask(
      { state: create(TaskStateSchema, { id: BigInt(taskId), result: Result.SUCCESS, stoppedAt: timestampFromDate(new Date()) }), outputs: { first: 'changed', second: 'two' } },
      r.auth,
    );
    expect(done.state!.result).toBe(Result.SUCCESS);
    expect(done.sentOutputs).toEqual(['first', 'second']);
    const outputs = await db.query('SELECT key, value FROM runners.task_outputs WHERE task_id = $1 ORDER BY key', [taskId]);
    expect(outputs.rows).toEqual([{ key: 'first', value: 'one' }, { key: 'second', value: 'two' }]);
    expect((await db.query('SELECT status FROM runners.tasks WHERE id = $1', [taskId])).rows[0].status).toBe('success');
  });

  it('refuses reports on unknown tasks and on other runners\' tasks', async () => {
    const r = await register(encoding);
    const other = await register(encoding);
    const foreign = await insertTask(other.id, 'running');
    for (const id of [999_999_999n, BigInt(foreign)]) {
      const task = await refusal(r.client.updateTask({ state: create(TaskStateSchema, { id, result: Result.SUCCESS }) }, r.auth));
      expect(task.code).toBe(Code.NotFound);
      const log = await refusal(r.client.updateLog({ taskId: id, index: 0n, rows: [create(LogRowSchema, { content: 'x' })] }, r.auth));
      expect(log.code).toBe(Code.NotFound);
    }
    expect((await db.query('SELECT status, log_length FROM runners.tasks WHERE id = $1', [foreign])).rows[0]).toEqual({ status: 'running', log_length: 0 });
  });

  it('refuses wrong credentials and deleted runners', async () => {
    const r = await register(encoding);
    const wrong = await refusal(r.client.fetchTask({}, { headers: { ...r.auth.headers, 'x-runner-token': 'f'.repeat(40) } }));
    expect(wrong.code).toBe(Code.Unauthenticated);
    const none = await refusal(r.client.declare({ version: 'x' }));
    expect(none.code).toBe(Code.Unauthenticated);

    await r.client.fetchTask({}, r.auth);
    const deleted = await http(suite).delete(`/admin/actions/runners/${r.id}`, { basic: admin });
    expect(deleted.status, deleted.text).toBe(204);
    // One call at a time: a second call made up front could be refused before anything awaits it (an unhandled rejection).
    for (const call of [() => r.client.fetchTask({}, r.auth), () => r.client.declare({ version: 'x' }, r.auth)]) {
      expect((await refusal(call())).code).toBe(Code.Unauthenticated);
    }
  });

  it('retires an ephemeral runner after its task', async () => {
    const r = await register(encoding, { ephemeral: true });
    expect((await runnerRow(r.id)).ephemeral).toBe(true);
    const taskId = await insertTask(r.id, 'running');
    await r.client.updateTask({ state: create(TaskStateSchema, { id: BigInt(taskId), result: Result.FAILURE }) }, r.auth);
    expect((await runnerRow(r.id)).deleted_at).not.toBeNull();
    // Its last log rows are still taken for a moment (Gitea's grace), its next poll is not.
    expect((await r.client.updateLog({ taskId: BigInt(taskId), index: 0n, rows: [create(LogRowSchema, { content: 'bye' })] }, r.auth)).ackIndex).toBe(1n);
    expect((await refusal(r.client.fetchTask({}, r.auth))).code).toBe(Code.Unauthenticated);
    const events = await db.query(`SELECT 1 FROM runners.outbox_events WHERE subject = 'runners.evt.runner.deleted' AND payload->'data'->'runner'->>'uuid' = $1`, [r.uuid]);
    expect(events.rowCount).toBe(1);
  });
});

describe('wire format', () => {
  let recorder: Server;
  let recorded: Buffer[] = [];

  beforeAll(async () => {
    // A loopback hop that keeps the request bodies it forwards to the gateway.
    recorder = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        recorded.push(body);
        const target = new URL(req.url!, suite.baseUrl);
        const { 'transfer-encoding': _chunked, ...given } = req.headers;
        const headers = { ...given, host: target.host, 'content-length': String(body.length) };
        const up = httpRequest(target, { method: req.method, headers }, (upRes) => {
          res.writeHead(upRes.statusCode!, upRes.headers);
          upRes.pipe(res);
        });
        up.end(body);
      });
    });
    await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', r));
  });

  afterAll(() => new Promise<void>((r) => recorder.close(() => r())));

  it('sends a binary Register exactly as the golden message from the public definitions, and it is accepted', async () => {
    const golden = readFileSync(path.join(FIXTURES, 'register-request.binpb'));
    const message = fromJsonString(RegisterRequestSchema, readFileSync(path.join(FIXTURES, 'register-request.json'), 'utf8'));
    expect(Buffer.from(toBinary(RegisterRequestSchema, message))).toEqual(golden);

    // The golden token must exist to register: make it a registration token of the instance.
    await db.query(
      `INSERT INTO runners.runner_registration_tokens (owner_id, repo_id, token_hash, token_sealed, is_active, updated_at)
       VALUES (0, 0, $1, 'not-read-by-this-test', true, now()) ON CONFLICT (token_hash) DO NOTHING`,
      [sha256(message.token)],
    );
    recorded = [];
    const port = (recorder.address() as AddressInfo).port;
    const res = await runnerClient('binary', `http://127.0.0.1:${port}/api/actions`).register(message);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toEqual(golden);
    expect(res.runner).toMatchObject({ name: 'golden-runner', ephemeral: true, labels: message.labels });
  });
});

describe('the gateway edge of /api/actions', () => {
  const url = () => `${suite.baseUrl}/api/actions/runner.v1.RunnerService/UpdateLog`;

  it('answers malformed messages with invalid_argument, in both encodings', async () => {
    for (const [type, body] of [['application/proto', Buffer.from([0x0a, 0xff, 0xff])], ['application/json', '{"taskId": ']] as const) {
      const res = await fetch(url(), { method: 'POST', headers: { 'content-type': type }, body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_argument');
    }
  });

  it('bounds the request body, declared or streamed', async () => {
    const tooLarge = Buffer.alloc(16 * 1024 * 1024 + 1);
    const declared = await fetch(url(), { method: 'POST', headers: { 'content-type': 'application/proto' }, body: tooLarge });
    expect(declared.status).toBe(413);

    // Chunked, without a length: cut by the gateway's count (413) or refused by the service's read bound (Connect's
    // resource_exhausted, 429), whichever notices first — never taken whole.
    const chunks = (async function* () {
      for (let i = 0; i < 17; i++) yield Buffer.alloc(1024 * 1024);
    })();
    const streamed = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/proto' },
      // Node's stream helpers, not the global ReadableStream (whose typing is the DOM's once a dependency's types pull lib.dom in).
      body: Readable.toWeb(Readable.from(chunks)),
      duplex: 'half',
    } as RequestInit);
    expect([413, 429]).toContain(streamed.status);
  });
});

describe('runners-service internal endpoint', () => {
  const internal = () => `${suite.env.CAIRN__CAIRN__RUNNERS_INTERNAL_URL}/api/actions`;

  it('speaks h2c (HTTP/2 with prior knowledge) as well as HTTP/1.1, for the gateway only', async () => {
    const token = suite.env.CAIRN__SECURITY__INTERNAL_TOKEN;
    for (const httpVersion of ['2', '1.1'] as const) {
      for (const encoding of ENCODINGS) {
        const ping = createClient(PingService, transport(internal(), encoding, httpVersion));
        const res = await ping.ping({ data: httpVersion }, { headers: { 'x-cairn-internal-token': token } });
        expect(res.data).toBe(`Hello, ${httpVersion}!`);
        const refused = await refusal(ping.ping({ data: 'x' }));
        expect(refused.code).toBe(Code.PermissionDenied);
      }
    }
  });
});
