/**
 * Fuzz suite: every operation of the published API description (`apps/gateway/openapi/swagger.v1.json`) gets
 * requests drawn from its documented parameters and body schema (test/support/openapi-fuzz.ts), as an anonymous
 * caller, as a stranger (a signed-in user with no relation to anything) and as the owner of real fixtures (a
 * repository with commits, an issue with a comment, a pull request, hooks, a key, a token, an organization with a
 * team). Whatever the input: never a 5xx, never a hang (every request is bounded; running into the bound is a
 * failure), and afterwards every app still runs and the gateway is ready.
 *
 *   CAIRN_FUZZ_RUNS   requests per operation and caller (default 4: ~1,300 requests, about a minute here)
 *   CAIRN_FUZZ_SEED   the seed (printed at the start; the same seed draws the same requests); `random` for a new one
 *   `npm run fuzz`    a bigger run with a new seed (CAIRN_FUZZ_RUNS=40, CAIRN_FUZZ_SEED=random unless set)
 *
 * All findings are gathered and named together (caller, method, path, body, status, answer) so that one run lists
 * every one of them.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { commitAll, generateSshKey, gitRunner, httpCloneUrl, workspace } from '../support/git.js';
import { fuzzOperations, loadDocument, requestArb, type FuzzRequest, type RealValues } from '../support/openapi-fuzz.js';
import { createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { processAlive, sharedTestSuite, type TestSuite } from '../support/suite.js';

const RUNS = Math.max(1, Number(process.env.CAIRN_FUZZ_RUNS ?? 4));
/**
 * `npm test` draws the same requests every time (a regression check must not fail on a seed nobody chose); `npm run
 * fuzz` explores with a fresh seed each run (scripts/reliability.mjs sets CAIRN_FUZZ_SEED=random).
 */
const DEFAULT_SEED = 1515993151;
const SEED =
  process.env.CAIRN_FUZZ_SEED === 'random'
    ? randomBytes(4).readUInt32BE() >>> 1
    : process.env.CAIRN_FUZZ_SEED
      ? Number(process.env.CAIRN_FUZZ_SEED)
      : DEFAULT_SEED;
/** A request unanswered after this long is a hang (the gateway's own RPC timeout is 10 s: a 504 comes well before). */
const REQUEST_TIMEOUT_MS = 30_000;

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let owner: Account;
let stranger: Account;
const ws = workspace('cairn-e2e-fuzz-');

/** The real objects requests may hit; rebuilt if a fuzzed request renames or deletes the repository. */
interface Fixtures {
  org: string;
  repo: string;
  publicRepo: string;
  orgRepo: string;
  sha: string;
  issue: number;
  pull: number;
  commentId: number;
  hookId: number;
  orgHookId: number;
  keyId: number;
  teamId: number;
  tokenId: number;
  tokenName: string;
}
let fx: Fixtures;

async function must(method: string, path: string, body: unknown, who: Account, status = 201): Promise<any> {
  const res = await api.request(method, path, { basic: who, body });
  if (res.status !== status) throw new Error(`fixture ${method} ${path} answered ${res.status}: ${res.text}`);
  return res.body;
}

/** The owner's objects: a private repository with two branches, an issue with a comment, a pull request, hooks… */
async function createFixtures(): Promise<Fixtures> {
  const o = owner.username;
  const org = uniqueName('fuzz-org');
  await must('POST', '/orgs', { username: org }, owner);
  const repo = uniqueName('fuzz-repo');
  const publicRepo = uniqueName('fuzz-public');
  const orgRepo = uniqueName('fuzz-org-repo');
  await must('POST', '/user/repos', { name: repo, auto_init: true, private: true }, owner);
  await must('POST', '/user/repos', { name: publicRepo, auto_init: true }, owner);
  await must('POST', `/orgs/${org}/repos`, { name: orgRepo, auto_init: true }, owner);

  const git = gitRunner(ws.dir('home'));
  const work = ws.dir('work');
  await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, o, repo, { username: o, secret: owner.password }), work]);
  await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
  const sha = await commitAll(git, work, { 'src/a.txt': 'a\n' }, 'add a');
  await git.ok(['push', '-q', 'origin', 'feature'], { cwd: work });

  const r = `/repos/${o}/${repo}`;
  const issue = await must('POST', `${r}/issues`, { title: 'fuzz target', body: 'x' }, owner);
  const comment = await must('POST', `${r}/issues/${issue.number}/comments`, { body: 'c' }, owner);
  const pull = await must('POST', `${r}/pulls`, { head: 'feature', base: 'main', title: 'p' }, owner);
  const hookBody = { type: 'gitea', active: true, events: ['push', 'issues'], config: { url: 'http://127.0.0.1:9/', content_type: 'json' } };
  const hook = await must('POST', `${r}/hooks`, hookBody, owner);
  const orgHook = await must('POST', `/orgs/${org}/hooks`, hookBody, owner);
  const key = await must('POST', '/user/keys', { title: uniqueName('k'), key: (await generateSshKey(ws.dir('keys'))).publicKey }, owner);
  const team = await must('POST', `/orgs/${org}/teams`, { name: uniqueName('t'), permission: 'write', units: ['repo.code'] }, owner);
  const tokenName = uniqueName('tok');
  const token = await must('POST', `/users/${o}/tokens`, { name: tokenName, scopes: ['read:user'] }, owner);
  return {
    org, repo, publicRepo, orgRepo, sha, issue: issue.number, pull: pull.number, commentId: comment.id,
    hookId: hook.id, orgHookId: orgHook.id, keyId: key.id, teamId: team.id, tokenId: token.id, tokenName,
  };
}

/** Real values per path parameter: what makes a share of the requests land on existing objects. */
const realValues: RealValues = (param) => {
  const names = [owner.username, stranger.username, fx.org];
  switch (param) {
    case 'owner':
      return [owner.username, fx.org];
    case 'username':
    case 'collaborator':
      return names;
    case 'org':
      return [fx.org];
    case 'repo':
      return [fx.repo, fx.publicRepo, fx.orgRepo];
    case 'index':
      return [fx.issue, fx.pull];
    case 'id':
      return [fx.hookId, fx.orgHookId, fx.commentId, fx.keyId, fx.teamId];
    case 'deliveryId':
      return [1];
    case 'sha':
      return [fx.sha, 'main', 'feature'];
    case 'branch':
    case 'base':
    case 'head':
      return ['main', 'feature'];
    case 'filepath':
      return ['README.md', 'src/a.txt', 'src'];
    case 'token':
      return [fx.tokenId, fx.tokenName];
    default:
      return [];
  }
};

interface Finding {
  caller: string;
  request: FuzzRequest;
  outcome: string;
}

/** Answers by status class (`2xx`, `4xx`, …): shows how many requests got past validation to real objects. */
const statusClasses = new Map<string, number>();
let fixtureRebuilds = 0;

/**
 * Sends one request, counting its answer by status class into `classes`; returns what is wrong with the outcome
 * (a 5xx, a hang, a failed request), or null. Shared by the API and the registry runs.
 */
async function exchange(url: string, init: RequestInit, classes: Map<string, number>): Promise<string | null> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    const statusClass = `${String(res.status)[0]}xx`;
    classes.set(statusClass, (classes.get(statusClass) ?? 0) + 1);
    return res.status >= 500 ? `${res.status} ${text.slice(0, 300)}` : null;
  } catch (err) {
    const e = err as Error;
    if (e.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s (hang)`;
    return `request failed: ${e.message} ${String((e as { cause?: Error }).cause?.message ?? '')}`;
  }
}

/** Sends one generated API request; returns what is wrong with the outcome, or null. */
function send(req: FuzzRequest, authorization: string | undefined): Promise<string | null> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (authorization) headers.authorization = authorization;
  let body: string | undefined;
  if (req.body) {
    headers['content-type'] = 'application/json';
    body = 'raw' in req.body ? req.body.raw : JSON.stringify(req.body.json);
  }
  return exchange(`${suite.baseUrl}/api/v1${req.path}`, { method: req.method, headers, body }, statusClasses);
}

/** Every app is still running and the gateway is ready (every service answers its health check). */
async function expectSuiteAlive(during: string): Promise<void> {
  const dead = suite.apps.filter((a) => !a.pid || !processAlive(a.pid)).map((a) => a.name);
  const ready = await fetch(`${suite.baseUrl}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  expect(dead, `apps that died during ${during} (seed ${SEED})`).toEqual([]);
  expect(ready.status, await ready.text()).toBe(200);
}

/** Makes sure the fixture repository still exists under its name (a fuzzed PATCH may rename it, a DELETE delete it). */
async function keepFixtures(): Promise<void> {
  const ok = await Promise.all(
    [fx.repo, fx.publicRepo].map(async (r) => (await api.get(`/repos/${owner.username}/${r}`, { basic: owner })).status === 200),
  );
  const orgOk = (await api.get(`/repos/${fx.org}/${fx.orgRepo}`, { basic: owner })).status === 200;
  if (!ok.every(Boolean) || !orgOk) {
    fixtureRebuilds++;
    // A fresh organization too: a fuzzed DELETE may have removed the owner from the old one.
    fx = await createFixtures();
  }
}

beforeAll(async () => {
  process.stdout.write(`fuzz: seed ${SEED} (CAIRN_FUZZ_SEED=${SEED} repeats this run), ${RUNS} run(s) per operation and caller\n`);
  suite = await sharedTestSuite();
  api = httpClient(suite);
  admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  stranger = await createUser(suite, admin, uniqueName('stranger'));
  fx = await createFixtures();
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('fuzzing every documented operation', () => {
  it(
    'answers every generated request without a 5xx or a hang, and every app survives',
    async () => {
      const doc = loadDocument();
      const operations = fuzzOperations(doc);
      // Destructive operations last: fewer fixture rebuilds.
      const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      operations.sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));
      const callers: [string, () => string | undefined][] = [
        ['anonymous', () => undefined],
        ['stranger', () => stranger.basic],
        ['owner', () => owner.basic],
      ];
      const findings: Finding[] = [];
      let requests = 0;
      const started = Date.now();
      for (const [index, op] of operations.entries()) {
        for (const [c, [caller, auth]] of callers.entries()) {
          // One seed per operation and caller: a finding replays without running everything before it.
          const samples = fc.sample(requestArb(doc, op, realValues), { seed: SEED + index * 3 + c, numRuns: RUNS });
          for (const req of samples) {
            requests++;
            const outcome = await send(req, auth());
            if (outcome) findings.push({ caller, request: req, outcome });
          }
        }
        await keepFixtures();
      }
      const seconds = (Date.now() - started) / 1000;
      const routes = new Set(operations.map((o) => o.template)).size;
      process.stdout.write(
        `fuzz: ${requests} requests over ${operations.length} operations (${routes} paths), 3 callers, ` +
          `seed ${SEED}, ${seconds.toFixed(0)} s, answers ${JSON.stringify(Object.fromEntries([...statusClasses].sort()))}, ` +
          `${fixtureRebuilds} fixture rebuild(s), ${findings.length} finding(s)\n`,
      );

      const report = findings.map(
        (f) => `${f.caller} ${f.request.method} ${f.request.path.slice(0, 200)} body=${JSON.stringify(f.request.body ?? null)?.slice(0, 200)} → ${f.outcome}`,
      );
      expect(report, `seed ${SEED}`).toEqual([]);
      await expectSuiteAlive('the fuzz run');
    },
    30 * 60_000,
  );
});


/**
 * The package registries are no part of the API description, so their routes are listed here: generic, npm and the
 * container registry (OCI distribution, `/v2`), each with path segments drawn from real names, arbitrary text and
 * hostile spellings, arbitrary bodies and headers. The same rule: never a 5xx, never a hang, every app survives.
 */
describe('fuzzing the package registries', () => {
  /** One registry request: method, path (already encoded), body, content type. */
  interface RegistryRequest {
    method: string;
    path: string;
    body?: Uint8Array;
    contentType?: string;
  }

  const hostile = ['..', '.', '%2e%2e', '%00', 'a%2Fb', '%20', '-', '_', 'A'.repeat(300), '%E2%80%AE', '%ff'];
  const segment = (real: string[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...real) },
      { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
      { weight: 1, arbitrary: fc.constantFrom(...hostile) },
    );
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 512 }),
    fc.jsonValue({ maxDepth: 3 }).map((v) => new TextEncoder().encode(JSON.stringify(v))),
    // Documents shaped like what the registries expect, with arbitrary values inside.
    fc.record({ name: fc.string(), versions: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), _attachments: fc.dictionary(fc.string({ maxLength: 8 }), fc.record({ data: fc.string() })) })
      .map((v) => new TextEncoder().encode(JSON.stringify(v))),
    fc.record({ schemaVersion: fc.oneof(fc.constant(2), fc.integer()), mediaType: fc.string(), config: fc.jsonValue({ maxDepth: 2 }), layers: fc.array(fc.record({ mediaType: fc.string(), digest: fc.string(), size: fc.integer() }), { maxLength: 3 }) })
      .map((v) => new TextEncoder().encode(JSON.stringify(v))),
  );
  const contentType = fc.constantFrom(
    undefined, 'application/json', 'application/octet-stream', 'application/vnd.oci.image.manifest.v1+json',
    'application/vnd.docker.distribution.manifest.v2+json', 'text/html', 'multipart/form-data; boundary=x',
  );
  const digest = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }).map((h) => `sha256:${h}`),
    fc.string({ maxLength: 80 }).map(encodeURIComponent),
  );

  /** Request shapes per registry route; `o` is an owner, `n` a package or image name. */
  function requestArbs(owners: string[], names: string[]): fc.Arbitrary<RegistryRequest>[] {
    const o = segment(owners);
    const n = segment(names);
    const v = segment(['1.0.0', 'latest', 'v1']);
    const f = segment(['file.bin', 'index.html', 'x.tgz']);
    const write = fc.constantFrom('PUT', 'POST', 'DELETE', 'PATCH');
    const read = fc.constantFrom('GET', 'HEAD');
    const any = fc.oneof(read, write);
    const req = (method: fc.Arbitrary<string>, path: fc.Arbitrary<string>) =>
      fc.record({ method, path, body: fc.option(bytes, { nil: undefined }), contentType });
    return [
      req(any, fc.tuple(o, n, v, f).map(([a, b, c, d]) => `/api/packages/${a}/generic/${b}/${c}/${d}`)),
      req(any, fc.tuple(o, n, v).map(([a, b, c]) => `/api/packages/${a}/generic/${b}/${c}`)),
      req(any, fc.tuple(o, n).map(([a, b]) => `/api/packages/${a}/npm/${b}`)),
      req(any, fc.tuple(o, n).map(([a, b]) => `/api/packages/${a}/npm/@${b}%2f${b}`)),
      req(read, fc.tuple(o, n, v, f).map(([a, b, c, d]) => `/api/packages/${a}/npm/${b}/-/${c}/${d}`)),
      req(any, fc.tuple(o, n, v).map(([a, b, c]) => `/api/packages/${a}/npm/-/package/${b}/dist-tags/${c}`)),
      req(read, fc.tuple(o, fc.string({ maxLength: 30 })).map(([a, t]) => `/api/packages/${a}/npm/-/v1/search?text=${encodeURIComponent(t)}&size=${t.length - 5}`)),
      req(read, fc.tuple(fc.string({ maxLength: 30 }), fc.integer({ min: -5, max: 5000 })).map(([l, k]) => `/v2/_catalog?n=${k}&last=${encodeURIComponent(l)}`)),
      req(any, fc.tuple(o, n).map(([a, b]) => `/v2/${a}/${b}/tags/list`)),
      req(any, fc.tuple(o, n, fc.oneof(v, digest)).map(([a, b, c]) => `/v2/${a}/${b}/manifests/${c}`)),
      req(any, fc.tuple(o, n, digest).map(([a, b, c]) => `/v2/${a}/${b}/blobs/${c}`)),
      req(any, fc.tuple(o, n, fc.option(digest, { nil: undefined })).map(([a, b, d]) => `/v2/${a}/${b}/blobs/uploads/${d ? `?digest=${d}` : ''}`)),
      req(any, fc.tuple(o, n, fc.string({ maxLength: 40 }).map(encodeURIComponent), digest).map(([a, b, u, d]) => `/v2/${a}/${b}/blobs/uploads/${u}?digest=${d}`)),
      req(read, fc.tuple(fc.string({ maxLength: 60 }), fc.string({ maxLength: 20 })).map(([scope, service]) => `/v2/token?scope=${encodeURIComponent(scope)}&service=${encodeURIComponent(service)}`)),
    ];
  }

  /** The registry's bearer token for a caller (anonymous callers get one too), for `/v2` requests. */
  async function registryBearer(basic: string | undefined): Promise<string> {
    const res = await fetch(`${suite.baseUrl}/v2/token`, { headers: basic ? { authorization: basic } : {} });
    const body = (await res.json()) as { token?: string };
    if (!body.token) throw new Error(`/v2/token answered ${res.status} without a token`);
    return `Bearer ${body.token}`;
  }

  it(
    'answers every generated registry request without a 5xx or a hang, and every app survives',
    async () => {
      // A real package of each kind, so that a share of the requests reach stored data.
      const name = uniqueName('fz');
      const file = await fetch(`${suite.baseUrl}/api/packages/${owner.username}/generic/${name}/1.0.0/file.bin`, {
        method: 'PUT', headers: { authorization: owner.basic }, body: 'fuzz',
      });
      expect(file.status).toBe(201);
      const callers: [string, string | undefined][] = [
        ['anonymous', undefined],
        ['stranger', stranger.basic],
        ['owner', owner.basic],
      ];
      const bearers = new Map<string, string>();
      for (const [caller, basic] of callers) bearers.set(caller, await registryBearer(basic));
      const arbs = requestArbs([owner.username, fx.org, stranger.username], [name, 'evil', fx.repo]);
      const findings: string[] = [];
      const answers = new Map<string, number>();
      let requests = 0;
      for (const [index, arb] of arbs.entries()) {
        for (const [c, [caller, basic]] of callers.entries()) {
          const samples = fc.sample(arb, { seed: SEED + 7919 + index * 3 + c, numRuns: RUNS * 5 });
          for (const req of samples) {
            requests++;
            const headers: Record<string, string> = {};
            const authorization = req.path.startsWith('/v2/') && !req.path.startsWith('/v2/token') ? bearers.get(caller) : basic;
            if (authorization) headers.authorization = authorization;
            if (req.contentType) headers['content-type'] = req.contentType;
            const body = req.body && !['GET', 'HEAD'].includes(req.method) ? Buffer.from(req.body) : undefined;
            const outcome = await exchange(`${suite.baseUrl}${req.path}`, { method: req.method, headers, body }, answers);
            if (outcome) findings.push(`${caller} ${req.method} ${req.path.slice(0, 200)} → ${outcome}`);
          }
        }
      }
      process.stdout.write(
        `fuzz: registries: ${requests} requests over ${arbs.length} route shapes, 3 callers, seed ${SEED}, ` +
          `answers ${JSON.stringify(Object.fromEntries([...answers].sort()))}, ${findings.length} finding(s)\n`,
      );
      expect(findings, `seed ${SEED}`).toEqual([]);
      await expectSuiteAlive('the registry fuzz run');
    },
    30 * 60_000,
  );
});
