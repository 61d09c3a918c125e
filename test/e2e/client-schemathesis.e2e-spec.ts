/**
 * schemathesis, a property-based API tester (PyPI; scripts/clients/schemathesis.mjs), against the OpenAPI document
 * the gateway publishes at `/swagger.v1.json`: every operation, once as the owner of real fixtures (a site admin with
 * an access token, an organization with a team, a repository with two branches, an issue with a comment, a pull
 * request, a label, a milestone, a release) and once as an anonymous caller. Path parameters are drawn from the real
 * names and numbers often (schemathesis dictionaries), otherwise invented by schemathesis.
 *
 * Checks: no 5xx (ST101), answers conform to the document — response schema (ST108), status codes it declares
 * (ST103), content types (ST104/ST105) — and no request runs into the timeout (a hang). The run's counts are read
 * from schemathesis's NDJSON event report.
 *
 *   CAIRN_SCHEMATHESIS_EXAMPLES  test cases per operation and caller (default 4: ~2,000 requests, ~1.5 min here)
 *   CAIRN_SCHEMATHESIS_SEED      the seed (default fixed, so `npm test` draws the same requests); `random` draws one
 *   CAIRN_SCHEMATHESIS_PHASES    schemathesis phases (default `examples,fuzzing`; `npm run fuzz:openapi` adds coverage)
 *   CAIRN_SCHEMATHESIS_REPORTS   a folder to keep schemathesis's NDJSON event reports in (`owner.ndjson`, `anonymous.ndjson`)
 *   `npm run fuzz:openapi`       the full pass (scripts/reliability.mjs): more examples, the coverage phase, a new seed
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';
import { run, workspace } from '../support/git.js';
import { createToken, http, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { clientSpec, clientStatus, ensureClient } from '../../scripts/clients.mjs';
import { REPO_ROOT } from '../../scripts/suite.mjs';

const spec = clientSpec('schemathesis');
const missing = clientStatus(spec).missing;
if (missing && process.env.CI === 'true') throw new Error(`schemathesis needs ${missing} (CI must have every client)`);
if (missing) process.stdout.write(`schemathesis suite skipped: install ${missing}\n`);

const EXAMPLES = Math.max(1, Number(process.env.CAIRN_SCHEMATHESIS_EXAMPLES ?? 4));
/** `npm test` draws the same requests every run: a check that gates a landing must not fail on a seed nobody chose. */
const DEFAULT_SEED = 20261128;
const SEED =
  process.env.CAIRN_SCHEMATHESIS_SEED === 'random'
    ? randomBytes(4).readUInt32BE() >>> 1
    : Number(process.env.CAIRN_SCHEMATHESIS_SEED ?? DEFAULT_SEED);
const PHASES = process.env.CAIRN_SCHEMATHESIS_PHASES ?? 'examples,fuzzing';
/** A request unanswered after this long is a hang (the gateway's own RPC timeout is 10 s: a 504 comes well before). */
const REQUEST_TIMEOUT_S = 30;
/** The whole run's bound: about a minute per example and caller on two shared cores, never under 15 minutes. */
const RUN_TIMEOUT_MS = Math.max(15, EXAMPLES * 2) * 60_000;
/** schemathesis's error types for an exchange that broke: no answer in time, a dropped connection, a cut body. */
const NETWORK_ERROR = /timeout|connection|chunked|remotedisconnected|protocol|incompleteread|ssl/i;
const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];

/**
 * Operations the owner's pass leaves out, each because it would break the run rather than test something: the
 * dictionaries below hand schemathesis the real fixtures, and these would remove or disable them for every
 * operation after. The anonymous pass runs all of them (they must refuse it).
 */
const OWNER_EXCLUDED: Record<string, string> = {
  repoDelete: 'deletes the fixture repositories every other repository operation reads',
  repoEdit: 'renames, archives or makes private the fixture repositories',
  orgDelete: 'deletes the fixture organization',
  adminDeleteUser: 'deletes the owner (the username dictionary holds it), whose token the run uses',
  adminEditUser: 'can demote the owner or forbid it to sign in (prohibit_login), which stops its token',
  userDeleteAccessToken: 'can delete the token the run uses (token ids are small numbers)',
  orgDeleteMember: 'can remove the owner from the fixture organization',
};

/** Failure codes by what they mean (schemathesis's `st explain <code>`). */
const KINDS: Record<string, string> = {
  ST101: 'server errors',
  ST108: 'schema violations',
  ST103: 'undeclared status codes',
  ST104: 'missing content types',
  ST105: 'undeclared content types',
};

interface Finding {
  code: string;
  operation: string;
  status: number | undefined;
  message: string;
  uri: string;
  body: string;
}

interface PassResult {
  caller: string;
  operations: Set<string>;
  requests: number;
  findings: Finding[];
  /** Exceptions inside schemathesis itself (not an exchange with Cairn). */
  toolErrors: string[];
  /** ST104 on answers without a body, which have nothing to type (see readReport). */
  bodiless: number;
  /** Requests schemathesis could not complete: a timeout is a hang, anything else a broken exchange. */
  errors: string[];
}

let suite: TestSuite;
let api: HttpClient;
let owner: Account;
let token: string;
let st: string;
const ws = workspace('cairn-e2e-schemathesis-');
const passes: PassResult[] = [];

/** The owner's real objects, created through the API; their names and numbers seed the dictionaries. */
async function createFixtures(): Promise<Record<string, (string | number)[]>> {
  const o = owner.username;
  const must = async (method: string, p: string, body: unknown, status = 201) => {
    const res = await api.request(method, p, { token, body });
    if (res.status !== status) throw new Error(`fixture ${method} ${p} answered ${res.status}: ${res.text}`);
    return res.body;
  };
  const org = 'st-org';
  await must('POST', '/orgs', { username: org });
  await must('POST', '/user/repos', { name: 'st-repo', auto_init: true });
  await must('POST', `/orgs/${org}/repos`, { name: 'st-org-repo', auto_init: true });
  const team = await must('POST', `/orgs/${org}/teams`, { name: 'devs', permission: 'write', units: ['repo.code'] });
  const r = `/repos/${o}/st-repo`;
  await must('POST', `${r}/branches`, { new_branch_name: 'feature' });
  const file = { operation: 'create', path: 'src/a.txt', content: Buffer.from('a\n').toString('base64') };
  await must('POST', `${r}/contents`, { branch: 'feature', message: 'add a', files: [file] });
  const issue = await must('POST', `${r}/issues`, { title: 'schemathesis target', body: 'x' });
  const comment = await must('POST', `${r}/issues/${issue.number}/comments`, { body: 'c' });
  const pull = await must('POST', `${r}/pulls`, { head: 'feature', base: 'main', title: 'p' });
  const label = await must('POST', `${r}/labels`, { name: 'bug', color: '#ee0701' });
  const milestone = await must('POST', `${r}/milestones`, { title: 'm1' });
  const release = await must('POST', `${r}/releases`, { tag_name: 'v1', name: 'v1' });
  return {
    owner: [o, org],
    repo: ['st-repo', 'st-org-repo'],
    org: [org],
    username: [o],
    index: [issue.number, pull.number],
    id: [comment.id, label.id, milestone.id, release.id, team.id],
    filepath: ['README.md', 'src/a.txt'],
    ref: ['main', 'feature', 'v1'],
  };
}

/** schemathesis.toml: the dictionaries, and which path parameters draw from them (how often). */
function configFile(dictionaries: Record<string, (string | number)[]>): string {
  const bind: Record<string, [string, number]> = {
    owner: ['owner', 0.8], repo: ['repo', 0.8], org: ['org', 0.8], username: ['username', 0.5],
    collaborator: ['username', 0.5], index: ['index', 0.6], id: ['id', 0.6], filepath: ['filepath', 0.6],
    branch: ['ref', 0.6], tag: ['ref', 0.6], ref: ['ref', 0.6], sha: ['ref', 0.6], base: ['ref', 0.6], head: ['ref', 0.6],
  };
  const lines: string[] = [];
  for (const [name, values] of Object.entries(dictionaries)) {
    lines.push(`[dictionaries.${name}]`, `values = ${JSON.stringify(values)}`);
  }
  lines.push('[parameters]');
  for (const [param, [dict, p]] of Object.entries(bind)) lines.push(`"path.${param}" = { dictionary = "${dict}", probability = ${p} }`);
  const file = path.join(ws.root, 'schemathesis.toml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Reads one pass's NDJSON event report: operations, requests sent, failures and errors. */
function readReport(caller: string, file: string): PassResult {
  const result: PassResult = { caller, operations: new Set(), requests: 0, findings: [], errors: [], toolErrors: [], bodiless: 0 };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as Record<string, any>;
    const error = event.NonFatalError ?? event.FatalError;
    if (error) {
      const line = `${error.label ?? ''}: ${error.value?.type ?? ''} ${String(error.value?.message ?? JSON.stringify(error)).slice(0, 300)}`;
      // An exchange that broke (a timeout is a hang) is Cairn's; an exception inside schemathesis's own generator
      // (seen: a Python SystemError in its coverage phase) is not, and is only reported.
      if (NETWORK_ERROR.test(String(error.value?.type ?? ''))) result.errors.push(line);
      else result.toolErrors.push(line);
    }
    const finished = event.ScenarioFinished;
    if (!finished) continue;
    const recorder = finished.recorder ?? {};
    const interactions = (recorder.interactions ?? {}) as Record<string, any>;
    if (Object.keys(interactions).length) result.operations.add(recorder.label);
    result.requests += Object.keys(interactions).length;
    for (const [caseId, checks] of Object.entries((recorder.checks ?? {}) as Record<string, any[]>)) {
      for (const check of checks) {
        if (check.status !== 'failure') continue;
        const failure = check.failure_info.failure;
        const exchange = interactions[caseId] ?? {};
        // Swagger 2.0 has one `produces` per operation, and schemathesis holds bodiless answers to it too: a 204, or
        // a 200/201 Gitea documents as `empty`, has no content and so no Content-Type, in Gitea as here. Not a
        // finding; counted apart.
        if (failure.code === 'ST104' && !exchange.response?.content?.$base64) {
          result.bodiless++;
          continue;
        }
        const content = exchange.response?.content?.$base64;
        result.findings.push({
          code: failure.code,
          operation: failure.operation,
          status: exchange.response?.status_code,
          message: String(failure.message).replace(/\s+/g, ' ').slice(0, 300),
          uri: exchange.request?.uri ?? '',
          body: content ? Buffer.from(content, 'base64').toString('utf8').slice(0, 300) : '',
        });
      }
    }
  }
  return result;
}

async function pass(caller: 'owner' | 'anonymous', config: string): Promise<PassResult> {
  const reports = process.env.CAIRN_SCHEMATHESIS_REPORTS ? path.resolve(process.env.CAIRN_SCHEMATHESIS_REPORTS) : ws.root;
  mkdirSync(reports, { recursive: true });
  const report = path.join(reports, `${caller}.ndjson`);
  const args = [
    '--config-file', config, 'run', `${suite.baseUrl}/swagger.v1.json`,
    '--checks', CHECKS.join(','),
    '--phases', PHASES,
    '--max-examples', String(EXAMPLES),
    '--seed', String(SEED),
    // Fixed workers: schemathesis's `auto` counts cores other work shares here.
    '--workers', '2',
    '--request-timeout', String(REQUEST_TIMEOUT_S),
    // The caller is fixed per pass (the token header, or none): schemathesis must not invent Gitea's other
    // credentials (`sudo`, `token`, `access_token`, `X-GITEA-OTP`), or every answer is about the invented user.
    '--generation-with-security-parameters', 'false',
    '--generation-database', 'none',
    '--report', 'ndjson', '--report-ndjson-path', report,
    '--no-color',
  ];
  if (caller === 'owner') {
    args.push('--header', `Authorization: token ${token}`);
    for (const id of Object.keys(OWNER_EXCLUDED)) args.push('--exclude-operation-id', id);
  }
  const ran = await run(st, args, { cwd: ws.root, env: { ...process.env, NO_COLOR: '1' }, timeoutMs: RUN_TIMEOUT_MS });
  const output = ran.stdout + ran.stderr;
  let result: PassResult;
  try {
    result = readReport(caller, report);
  } catch (err) {
    throw new Error(`schemathesis (${caller}) left no report: ${(err as Error).message}\n${output.slice(-3000)}`, { cause: err });
  }
  passes.push(result);
  return result;
}

/** The apps' log lines naming a 5xx answer's error id (the body says `error id …`): the cause, next to the finding. */
function serverLogFor(body: string): string {
  const id = /error id ([0-9a-f-]{36})/.exec(body)?.[1];
  if (!id) return '';
  const dir = path.join(suite.dataDir, 'logs');
  const lines = readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter((l) => l.includes(id)));
  return lines.map((l) => `\n    ${l.slice(0, 1500)}`).join('');
}

function count(results: PassResult[], code: string): number {
  return results.reduce((n, r) => n + r.findings.filter((f) => f.code === code).length, 0);
}

/** One line per distinct (caller, code, operation, status), with one example: what to fix, without the repeats. */
function describeFindings(results: PassResult[], codes: string[]): string {
  const seen = new Map<string, string>();
  for (const r of results) {
    for (const f of r.findings.filter((x) => codes.includes(x.code))) {
      const key = `${r.caller} ${f.code} ${f.operation} ${f.status}`;
      if (!seen.has(key)) seen.set(key, `${key}: ${f.message} — ${f.uri} → ${f.body}${f.code === 'ST101' ? serverLogFor(f.body) : ''}`);
    }
  }
  return [...seen.values()].join('\n');
}

describe.skipIf(Boolean(missing))(`schemathesis ${spec.version} against the published OpenAPI document`, () => {
  beforeAll(async () => {
    st = (await ensureClient('schemathesis', { log: (l) => process.stdout.write(`${l}\n`) })).bin;
    suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH } });
    api = http(suite);
    owner = await suite.createAdmin();
    token = await createToken(suite, owner, ['all']);
  }, 600_000);

  afterAll(async () => {
    const all = passes;
    if (all.length) {
      const ops = new Set(all.flatMap((r) => [...r.operations]));
      const requests = all.reduce((n, r) => n + r.requests, 0);
      const kinds = Object.entries(KINDS).map(([code, kind]) => `${count(all, code)} ${kind}`);
      const hangs = all.reduce((n, r) => n + r.errors.filter((e) => /timeout|timed out/i.test(e)).length, 0);
      process.stdout.write(
        `schemathesis ${spec.version}: ${ops.size} operations, ${requests} requests (${all.map((r) => `${r.caller} ${r.requests}`).join(', ')}), ` +
          `${kinds.join(', ')}, ${hangs} hangs (${all.reduce((n, r) => n + r.bodiless, 0)} answers without a body and so without a content type, not counted); seed ${SEED}, ${EXAMPLES} examples per operation, phases ${PHASES}\n`,
      );
    }
    for (const line of all.flatMap((r) => r.toolErrors)) process.stdout.write(`schemathesis's own error (not Cairn's): ${line}\n`);
    await suite?.stop();
    ws.cleanup();
  });

  it('every operation, as the owner of real fixtures and anonymously: no 5xx, no hang, answers as the document says', async () => {
    const config = configFile(await createFixtures());
    const owned = await pass('owner', config);
    const anonymous = await pass('anonymous', config);
    const both = [owned, anonymous];

    // Every documented operation was called by both callers (less the owner's exclusions).
    const documented = Object.values(JSON.parse(readFileSync(path.join(REPO_ROOT, 'apps', 'gateway', 'openapi', 'swagger.v1.json'), 'utf8')).paths as Record<string, object>)
      .reduce<number>((n, methods) => n + Object.keys(methods).filter((m) => m !== 'parameters').length, 0);
    expect(anonymous.operations.size).toBe(documented);
    expect(owned.operations.size).toBe(documented - Object.keys(OWNER_EXCLUDED).length);

    expect(both.flatMap((r) => r.errors), 'requests that hung or failed').toEqual([]);
    expect(describeFindings(both, ['ST101']), 'server errors').toBe('');
    expect(describeFindings(both, ['ST108']), 'answers that break the response schema').toBe('');
    expect(describeFindings(both, ['ST103']), 'status codes the document does not declare').toBe('');
    expect(describeFindings(both, ['ST104', 'ST105']), 'content types the document does not declare').toBe('');
    // Nothing else failed either (a check of another kind would be a new finding to look at).
    expect(describeFindings(both, [...new Set(both.flatMap((r) => r.findings.map((f) => f.code)))].filter((c) => !(c in KINDS)))).toBe('');
  }, RUN_TIMEOUT_MS);
});
