/**
 * HTTP edge hardening (issue 9 items 8, 10, 11 and 17), end to end against the whole suite:
 * - CSRF: only JSON bodies reach the API (a browser form's types → 415, nothing created); web pages never challenge
 *   for Basic credentials; git over HTTP still does and still clones.
 * - Body limits before parsing: 100k-deep JSON → 400, oversized → 413 (declared or chunked), anonymous callers get
 *   the normal limit even on the file-content routes; the gateway keeps answering.
 * - `Idempotency-Key`: the same POST twice creates one issue and answers the same body (the second marked as a
 *   replay); the key with another body → 422.
 * - Hooks show credentials masked; `/metrics` needs `[metrics] TOKEN`; `[server] HTTP_ADDR` and `SSH_LISTEN_HOST`
 *   bind only where told.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { basicAuth, startTestSuite, type TestSuite } from '../support/suite.js';
import { gitRunner, httpCloneUrl, workspace } from '../support/git.js';
import { FAST_PASSWORD_HASH, expectApiError, sshKeyFactory } from './identity-helpers.js';

const METRICS_TOKEN = 'metrics-e2e-token-0123456789';
const MIB = 1024 * 1024;

let suite: TestSuite;
let api: HttpClient;
let owner: Account;
let token: string;
const repo = 'edge';
const ws = workspace('cairn-e2e-edge-');
const keys = sshKeyFactory();

beforeAll(async () => {
  suite = await startTestSuite({
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__SERVER__HTTP_ADDR: '127.0.0.1',
      CAIRN__METRICS__ENABLED: 'true',
      CAIRN__METRICS__TOKEN: METRICS_TOKEN,
      // File-content routes: 1 MB files → a body limit of ~1.33 MiB + 1 MiB.
      CAIRN__REPOSITORY_UPLOAD__FILE_MAX_SIZE: '1',
    },
  });
  api = http(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('edge'));
  token = await createToken(suite, owner, ['all']);
  expect((await api.post('/user/repos', { token, body: { name: repo, private: true, auto_init: true } })).status).toBe(201);
});

afterAll(async () => {
  keys.cleanup();
  ws.cleanup();
  await suite?.stop();
});

/** A raw request (fetch cannot send some of these shapes, e.g. a chunked body without a length). */
function raw(
  method: string,
  url: string,
  headers: Record<string, string>,
  chunks: (string | Buffer)[] = [],
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // The gateway may answer (413) and close before it read everything: that is the point.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/**
 * A POST whose body the gateway refuses unread: sent in one write with its headers, since the gateway answers and
 * closes the connection without reading the rest.
 */
function refusedPost(apiPath: string, authorization: string, contentType: string, body: string) {
  return raw(
    'POST',
    suite.api(apiPath),
    { authorization, 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) },
    [body],
  );
}

async function keyCount(): Promise<number> {
  const res = await api.get('/user/keys', { token });
  expect(res.status).toBe(200);
  return res.body.length;
}

describe('only JSON bodies reach the API (CSRF)', () => {
  it('refuses a form-encoded POST /user/keys with Basic credentials: 415, no key created', async () => {
    const key = keys.generate('ed25519');
    const before = await keyCount();
    const form = new URLSearchParams({ title: 'csrf', key: key.publicKey }).toString();
    const res = await refusedPost('/user/keys', owner.basic, 'application/x-www-form-urlencoded', form);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).message).toMatch(/request bodies must be JSON \(Content-Type: application\/json\)/);
    expect(await keyCount()).toBe(before);
  });

  it('refuses a JSON-looking text/plain body and a multipart form: 415, no key created', async () => {
    const key = keys.generate('ed25519');
    const before = await keyCount();
    const text = await refusedPost('/user/keys', owner.basic, 'text/plain', JSON.stringify({ title: 'csrf-text', key: key.publicKey }));
    expect(text.status).toBe(415);
    expect(JSON.parse(text.body).message).toMatch(/unsupported Content-Type "text\/plain"/);
    const boundary = 'e2e-boundary';
    const multipart = [
      `--${boundary}\r\ncontent-disposition: form-data; name="title"\r\n\r\ncsrf-multipart\r\n`,
      `--${boundary}\r\ncontent-disposition: form-data; name="key"\r\n\r\n${key.publicKey}\r\n--${boundary}--\r\n`,
    ].join('');
    expect((await refusedPost('/user/keys', owner.basic, `multipart/form-data; boundary=${boundary}`, multipart)).status).toBe(415);
    // A body without any Content-Type is not guessed at either.
    const untyped = await raw('POST', suite.api('/user/keys'), { authorization: owner.basic, 'content-length': '2' }, ['{}']);
    expect(untyped.status).toBe(415);
    expect(untyped.body).toMatch(/needs Content-Type: application\/json/);
    expect(await keyCount()).toBe(before);
  });

  it('still takes JSON (also +json types) and bodiless requests whatever their Content-Type says', async () => {
    const key = keys.generate('ed25519');
    const created = await api.post('/user/keys', {
      token,
      body: JSON.stringify({ title: 'ok', key: key.publicKey }),
      headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' },
    });
    expect(created.status).toBe(201);
    const removed = await raw('DELETE', suite.api(`/user/keys/${created.body.id}`), {
      authorization: `token ${token}`,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '0',
    });
    expect(removed.status).toBe(204);
  });

  it('web pages ignore Basic credentials and never challenge; git over HTTP still challenges and clones with credentials', async () => {
    // Web pages know only their session cookie: an Authorization header neither signs in nor draws a challenge.
    const url = `${suite.baseUrl}/${owner.username}/${repo}/pulls/1`;
    const anonymous = await fetch(url);
    for (const secret of ['wrong-password', owner.password]) {
      const page = await fetch(url, { headers: { authorization: basicAuth(owner.username, secret) } });
      expect(page.status).toBe(anonymous.status);
      expect(page.headers.get('www-authenticate')).toBeNull();
    }

    const refs = await fetch(`${suite.baseUrl}/${owner.username}/${repo}.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(401);
    expect(refs.headers.get('www-authenticate')).toMatch(/^Basic /);
    const git = gitRunner(ws.dir('home'));
    const dir = path.join(ws.root, 'clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password }), dir]);
    expect(await git.ok(['-C', dir, 'log', '--oneline'])).not.toBe('');
  });
});

describe('bodies are limited before they are parsed', () => {
  it('answers 400 to 100,000 nested arrays from an anonymous caller, and keeps answering', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await api.post('/user/keys', { body: deep, headers: { 'content-type': 'application/json' } });
    expectApiError(res, 400, /nested deeper than 64 levels/);
    const authed = await api.post('/user/keys', { token, body: deep, headers: { 'content-type': 'application/json' } });
    expectApiError(authed, 400, /nested deeper than 64 levels/);
    expect((await api.get('/version')).status).toBe(200);
  });

  it('answers 413 to a body over [server] MAX_BODY_SIZE (declared or chunked), and keeps answering', async () => {
    const big = JSON.stringify({ title: 'x', key: 'a'.repeat(MIB + 10) });
    expectApiError(await api.post('/user/keys', { token, body: big, headers: { 'content-type': 'application/json' } }), 413, /limit is 1048576 bytes/);
    const anonymous = await api.post('/user/keys', { body: big, headers: { 'content-type': 'application/json' } });
    expectApiError(anonymous, 413, /limit is 1048576 bytes for requests without credentials/);
    expect(anonymous.headers.get('x-request-id')).toEqual(expect.any(String));
    const chunked = await raw(
      'POST',
      suite.api('/user/keys'),
      { authorization: `token ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      [big.slice(0, MIB / 2), big.slice(MIB / 2)],
    );
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).message).toMatch(/request body too large: the limit is 1048576 bytes/);
    expect((await api.get('/version')).status).toBe(200);
  });

  it('lets authenticated callers send larger bodies to the file-content routes only ([repository.upload] FILE_MAX_SIZE)', async () => {
    const route = `/repos/${owner.username}/${repo}/file-contents`;
    const body = JSON.stringify({ files: ['README.md'], padding: 'p'.repeat(1.5 * MIB) });
    const authed = await api.post(route, { token, body, headers: { 'content-type': 'application/json' } });
    expect(authed.status).not.toBe(413);
    const anonymous = await api.post(route, { body, headers: { 'content-type': 'application/json' } });
    expectApiError(anonymous, 413, /for requests without credentials/);
    const chunked = await raw('POST', suite.api(route), { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [body]);
    expect(chunked.status).toBe(411);
    const tooBig = JSON.stringify({ files: ['README.md'], padding: 'p'.repeat(3 * MIB) });
    expectApiError(await api.post(route, { token, body: tooBig, headers: { 'content-type': 'application/json' } }), 413);
  });

  it('takes files up to FILE_MAX_SIZE through the contents write routes, and answers a larger one with 413', async () => {
    const route = `/repos/${owner.username}/${repo}/contents/big.bin`;
    // 1.2 MiB: over a bus message and over the inline content budget, so both travel out of band.
    const bytes = Buffer.alloc(1.2 * MIB, 7);
    const created = await api.post(route, { token, body: { content: bytes.toString('base64') } });
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    expect(created.body.content.size).toBe(bytes.length);
    expect(created.body.content.content).toBe(bytes.toString('base64'));
    const tooBig = await api.put(route, { token, body: { content: Buffer.alloc(2 * MIB, 8).toString('base64'), sha: created.body.content.sha } });
    expectApiError(tooBig, 413, /request body too large/);
    expect((await api.get(route, { token })).body.sha).toBe(created.body.content.sha);
  });
});

describe('Idempotency-Key on POST', () => {
  const issues = () => `/repos/${owner.username}/${repo}/issues`;

  it('creates one issue for two POSTs with the same key and answers the same body, the second marked as a replay', async () => {
    const key = `create-${uniqueName('k')}`;
    const headers = { 'idempotency-key': key };
    const body = { title: `once ${key}` };
    const first = await api.post(issues(), { token, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await api.post(issues(), { token, body, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const listed = await api.get(`${issues()}?state=all&type=issues&limit=50`, { token });
    expect(listed.body.filter((i: { title: string }) => i.title === body.title)).toHaveLength(1);
    // Without a key, or with another one, a POST runs again.
    const other = await api.post(issues(), { token, body, headers: { 'idempotency-key': `${key}-2` } });
    expect(other.body.number).not.toBe(first.body.number);
  });

  it('answers 422 when the key comes back with a different body, 400 for a malformed key', async () => {
    const key = `reuse-${uniqueName('k')}`;
    const headers = { 'idempotency-key': key };
    expect((await api.post(issues(), { token, body: { title: 'first body' }, headers })).status).toBe(201);
    expectApiError(await api.post(issues(), { token, body: { title: 'second body' }, headers }), 422, /different request body/);
    expectApiError(
      await api.post(issues(), { token, body: { title: 'bad key' }, headers: { 'idempotency-key': 'x'.repeat(300) } }),
      400,
      /Idempotency-Key/,
    );
  });
});

describe('hardening notes', () => {
  it('shows a hook authorization header and URL credentials masked', async () => {
    const created = await api.post(`/repos/${owner.username}/${repo}/hooks`, {
      token,
      body: {
        type: 'gitea',
        config: { url: 'https://ci:pa55w0rd@example.com/hook', content_type: 'json' },
        authorization_header: 'Bearer s3cr3t-t0ken',
        active: false,
      },
    });
    expect(created.status).toBe(201);
    const got = await api.get(`/repos/${owner.username}/${repo}/hooks/${created.body.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body.authorization_header).toBe('Bearer ********');
    expect(got.body.config.url).toBe('https://ci:********@example.com/hook');
    const listed = await api.get(`/repos/${owner.username}/${repo}/hooks`, { token });
    for (const text of [JSON.stringify(created.body), JSON.stringify(got.body), JSON.stringify(listed.body)]) {
      expect(text).not.toContain('s3cr3t-t0ken');
      expect(text).not.toContain('pa55w0rd');
    }
  });

  it('serves /metrics only with Authorization: Bearer <[metrics] TOKEN>', async () => {
    await api.get('/version');
    const anonymous = await fetch(`${suite.baseUrl}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('cairn_http_requests_total');
    expect((await fetch(`${suite.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const res = await fetch(`${suite.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# TYPE cairn_http_requests_total counter$/m);
    expect(text).toMatch(/cairn_http_requests_total\{method="GET",route="\/api\/v1\/version",status="200"\} \d+/);
    expect(text).toContain('cairn_http_request_duration_seconds_bucket');
  });

  it('binds HTTP and SSH only to [server] HTTP_ADDR and SSH_LISTEN_HOST (127.0.0.1 here: 127.0.0.2 is refused)', async () => {
    const port = Number(new URL(suite.baseUrl).port);
    const reach = (host: string, p: number) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: p });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
    expect(await reach('127.0.0.1', port)).toBe(true);
    expect(await reach('127.0.0.2', port)).toBe(false);
    expect(await reach('127.0.0.1', suite.sshPort)).toBe(true);
    expect(await reach('127.0.0.2', suite.sshPort)).toBe(false);
  });
});
