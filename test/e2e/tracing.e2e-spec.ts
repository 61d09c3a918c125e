/**
 * Distributed tracing and log hygiene end to end: the whole suite with `[tracing] ENABLED`, exporting to a real
 * OTLP/HTTP receiver run here, a real webhook receiver, and real pushes with the git command over smart HTTP.
 *
 * - One push that moves an open pull request's head yields one trace: the gateway's HTTP span → repo-service's
 *   internal git endpoint → the merge-check job in merge-check-worker (context in the BullMQ job data), and →
 *   the outbox row → JetStream → hooks-service's consumer → the webhook-delivery job (context in job data).
 * - Every app's log output, after traffic carrying passwords, tokens, a webhook secret and a 2FA seed, contains
 *   none of them; log lines written while handling traced work carry `trace_id`/`span_id` beside the `rid`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeCheckJobId, type PullRequestDto } from '@cairn/contracts';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git, type Workspace } from '../support/git.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { createToken, createUser, http, uniqueName, type Account } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { totpCode } from '../support/totp.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const FAST_PASSWORD_HASH = { CAIRN__SECURITY__PASSWORD_HASH_ALGO: 'scrypt$1024$8$1' };
const WEBHOOK_SECRET = `whsec-${uniqueName('s')}-never-logged`;

let otlp: OtlpReceiver;
let receiver: WebhookReceiver;
let suite: TestSuite;
let owner: Account;
let token: string;
let repo: string;
let ws: Workspace;
let git: Git;
let work: string;
const api = () => http(suite);
const repoPath = (p: string) => `/repos/${owner.username}/${repo}${p}`;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  receiver = await startWebhookReceiver();
  suite = await startTestSuite({
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
      CAIRN__TRACING__ENABLED: 'true',
      CAIRN__TRACING__OTLP_ENDPOINT: otlp.url,
    },
  });
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('dev'));
  token = await createToken(suite, owner);
  repo = uniqueName('traced');
  const created = await api().post('/user/repos', { token, body: { name: repo, auto_init: true } });
  expect(created.status, created.text).toBe(201);
  ws = workspace('cairn-e2e-tracing-');
  git = gitRunner(ws.dir('home'));
  work = ws.dir('work');
  const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: token });
  await git.ok(['clone', '-q', url, work]);
});

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  await otlp?.close();
  ws?.cleanup();
});

async function pushBranch(branch: string, files: Record<string, string>, message: string): Promise<string> {
  await git.ok(['checkout', '-q', '-B', branch], { cwd: work });
  const sha = await commitAll(git, work, files, message);
  await git.ok(['push', '-q', 'origin', `${branch}:${branch}`], { cwd: work });
  return sha;
}

/** Adds a repository hook for pushes that delivers to the receiver under `path`, signed with `secret`. */
async function addPushHook(path: string, secret: string): Promise<void> {
  const hook = await api().post(repoPath('/hooks'), {
    token,
    body: { type: 'gitea', active: true, events: ['push'], config: { url: `${receiver.url}${path}`, content_type: 'json', secret } },
  });
  expect(hook.status, hook.text).toBe(201);
}

/** Waits until the receiver got the push delivery of commit `sha` under `path`. */
function pushDelivered(path: string, sha: string) {
  return waitFor(() => receiver.received.find((d) => d.path === path && d.json?.after === sha), `the push delivery to ${path}`, 60_000);
}

/** The span and its ancestors up to the root, as far as they have arrived; `complete` once the root is there. */
function ancestry(span: ReceivedSpan): { chain: ReceivedSpan[]; complete: boolean } {
  const byId = new Map(otlp.spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  const chain = [span];
  for (let at = span; at.parentSpanId; ) {
    const parent = byId.get(at.parentSpanId);
    if (!parent) return { chain, complete: false };
    chain.push(parent);
    at = parent;
  }
  return { chain, complete: true };
}

const describeChain = (chain: ReceivedSpan[]) => chain.map((s) => `${s.service}: ${s.name}`).join(' ← ');

describe('tracing', () => {
  it('follows a push that moves a pull request\'s head through its merge check and its webhook delivery as one trace', async () => {
    await pushBranch('feature', { 'feature.txt': 'one\n' }, 'first');
    const opened = await api().post(repoPath('/pulls'), { token, body: { head: 'feature', base: 'main', title: 'Traced' } });
    expect(opened.status, opened.text).toBe(201);
    const pr = opened.body as PullRequestDto;
    await addPushHook('/push', WEBHOOK_SECRET);

    const head = await pushBranch('feature', { 'feature.txt': 'two\n' }, 'second');

    // The delivery reached the receiver, and the pull request was checked at the new head.
    await pushDelivered('/push', head);
    const checked = await waitFor(async () => {
      const res = await api().get(repoPath(`/pulls/${pr.number}`), { token });
      return res.body.head?.sha === head && res.body.mergeable_state !== 'checking' ? (res.body as PullRequestDto) : null;
    }, 'the merge check of the new head', 60_000);
    const checkJobId = mergeCheckJobId(pr.id, checked.base.sha, head);

    // The spans of that check's job and of the delivery job, each with its ancestry up to the push's HTTP request.
    const isPushRoot = (s: ReceivedSpan) =>
      s.service === 'cairn-gateway' && !s.parentSpanId && String(s.attributes['url.path']).endsWith('/git-receive-pack');
    const check = await waitFor(() => {
      const job = otlp.spans.find((s) => s.service === 'cairn-merge-check' && s.attributes['messaging.message.id'] === checkJobId);
      const a = job && ancestry(job);
      return a?.complete ? a.chain : null;
    }, 'the merge-check job span and its ancestors', 60_000);
    const root = check.at(-1)!;
    expect(isPushRoot(root), describeChain(check)).toBe(true);
    const delivery = await waitFor(() => {
      const jobs = otlp.spans.filter((s) => s.service === 'cairn-hooks' && s.name.startsWith('job ') && s.traceId === root.traceId);
      const chains = jobs.map(ancestry).filter((a) => a.complete);
      return chains.length ? chains[0].chain : null;
    }, 'the webhook-delivery job span in the push\'s trace', 60_000);
    expect(delivery.at(-1), describeChain(delivery)).toBe(root);

    // merge check: worker job ← repo-service (push recorded on its internal git endpoint) ← gateway request
    const checkServices = check.map((s) => s.service);
    expect(checkServices[0]).toBe('cairn-merge-check');
    expect(checkServices, describeChain(check)).toContain('cairn-repo');
    expect(check.find((s) => s.service === 'cairn-repo')?.name, describeChain(check)).toBe('POST /internal/git/:owner/:repo/git-receive-pack');

    // delivery: hooks job ← hooks consumer ← JetStream publish (repo-service's relay) ← … ← gateway request
    const names = delivery.map((s) => `${s.service}: ${s.name}`);
    expect(names[0]).toMatch(/^cairn-hooks: job /);
    expect(names, describeChain(delivery)).toContain('cairn-hooks: consume repo.evt.push.received');
    expect(names, describeChain(delivery)).toContain('cairn-repo: publish repo.evt.push.received');
    expect(names.indexOf('cairn-repo: publish repo.evt.push.received')).toBeGreaterThan(names.indexOf('cairn-hooks: consume repo.evt.push.received'));

    // The same trace has the push's git process and Prisma's database spans of repo-service.
    await waitFor(
      () => otlp.spans.some((s) => s.traceId === root.traceId && s.service === 'cairn-repo' && s.name === 'git receive-pack'),
      'the span of the git receive-pack process',
    );
    await waitFor(
      () => otlp.spans.some((s) => s.traceId === root.traceId && s.service === 'cairn-repo' && s.name.startsWith('prisma:')),
      'a Prisma span of repo-service in the push\'s trace',
    );
    expect(otlp.rejected).toEqual([]);
  });
});

/** Every line every app of the suite has written so far (restarted apps included). */
function allLogLines(): { app: string; line: string }[] {
  const out: { app: string; line: string }[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith('.log')) for (const line of readFileSync(file, 'utf8').split('\n')) out.push({ app: name, line });
    }
  };
  walk(path.join(suite.dataDir, 'logs'));
  return out;
}

describe('logs', () => {
  it('never contain the passwords, tokens, webhook secrets or 2FA seeds that went through the suite, and carry trace ids', async () => {
    // Traffic with secrets in every place a client puts them: Basic auth, token headers and query, git URLs, bodies.
    const admin = await suite.createAdmin();
    const user = await createUser(suite, admin, uniqueName('sec'));
    const userToken = await createToken(suite, user);
    const enrol = await api().post('/user/2fa', { basic: user });
    expect(enrol.status, enrol.text).toBe(201);
    const seed: string = enrol.body.secret;
    const confirmed = await api().post('/user/2fa/confirm', { basic: user, body: { passcode: totpCode(seed) } });
    expect(confirmed.status, confirmed.text).toBe(200);
    const scratch: string = confirmed.body.scratch_token;
    // Refused attempts too: a wrong OTP, a wrong password, an unknown token in the query string.
    expect((await api().get('/user', { basic: user, headers: { 'x-gitea-otp': '000000' } })).status).toBe(401);
    expect((await api().get('/user', { basic: `Basic ${Buffer.from(`${user.username}:${user.password}x`).toString('base64')}` })).status).toBe(401);
    expect((await api().get(`/user?token=${userToken}0`)).status).toBe(401);
    expect((await api().get(`/user?access_token=${userToken}`)).status).toBe(200);
    const hookSecret = `${WEBHOOK_SECRET}-2`;
    await addPushHook('/second', hookSecret);
    const head = await pushBranch('logs', { 'logs.txt': 'secret-free\n' }, 'push with two hooks');
    await pushDelivered('/second', head);
    // A push with a wrong token in the URL: refused, and that token is not logged either.
    const badUrl = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: `${token}bad` });
    expect((await git.try(['push', '-q', badUrl, 'logs:refs/heads/refused'], { cwd: work })).code).not.toBe(0);

    const secrets: Record<string, string> = {
      'admin password': admin.password,
      'owner password': owner.password,
      'user password': user.password,
      'owner token': token,
      'user token': userToken,
      'refused token': `${token}bad`,
      'webhook secret': WEBHOOK_SECRET,
      'second webhook secret': hookSecret,
      '2FA seed': seed,
      '2FA scratch token': scratch,
      'Basic credentials': user.basic.replace(/^Basic /, ''),
      'internal token': suite.env.CAIRN__SECURITY__INTERNAL_TOKEN,
      'secret key': suite.env.CAIRN__SECURITY__SECRET_KEY,
    };
    const lines = allLogLines();
    expect(lines.length).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret?.length, what).toBeGreaterThanOrEqual(8);
      for (const { app, line } of lines) {
        if (line.includes(secret) || line.includes(encodeURIComponent(secret))) leaks.push(`${what} in ${app}: ${line.slice(0, 300)}`);
      }
    }
    expect(leaks).toEqual([]);

    // Lines written inside traced work name their trace and span next to the correlation id.
    const traced = lines
      .map(({ line }) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return null;
        }
      })
      .filter((l): l is Record<string, unknown> => Boolean(l && l.trace_id));
    expect(traced.length, 'no log line carries a trace_id').toBeGreaterThan(0);
    for (const l of traced) {
      expect(l.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(l.span_id).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(traced.some((l) => typeof l.rid === 'string')).toBe(true);
  });
});
