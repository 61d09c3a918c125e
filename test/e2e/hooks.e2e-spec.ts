/**
 * Webhooks end to end (issue 5): admin hooks (system and default) over HTTP with their permission and validation
 * rules, default hooks copied into a repository before its creation answers, repository and organization hooks, a
 * real `git push` turned into signed `create`/`push` deliveries to a real receiver (verified with
 * `@octokit/webhooks-methods`), the hook test route, and GitHub's deliveries API driven with `@octokit/rest`.
 */
import { createHmac } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { verify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesDefinition } from '../support/openapi-contract.js';
import { createToken, createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { REPO_SUITE_APPS, commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { FAST_PASSWORD_HASH, expectApiError } from './identity-helpers.js';

const SECRET = 'e2e-hook-secret';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let alice: Account;
let stranger: Account;
let git: Git;
const ws = workspace('cairn-e2e-hooks-');
let receiver: WebhookReceiver;
let receiverUrl: string;

const at = (path: string) => receiver.received.filter((r) => r.path === path);
/** Both signatures Gitea sends: `X-Hub-Signature-256` (checked with @octokit/webhooks-methods) and `X-Gitea-Signature`. */
async function signatureOk(r: ReceivedDelivery): Promise<boolean> {
  const sig = String(r.headers['x-hub-signature-256'] ?? '');
  const plain = createHmac('sha256', SECRET).update(r.body).digest('hex');
  return !!sig && (await verify(SECRET, r.body, sig)) && r.headers['x-gitea-signature'] === plain;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiverUrl = receiver.url;

  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms' },
  });
  api = httpClient(suite);
  admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  stranger = await createUser(suite, admin, uniqueName('stranger'));
  git = gitRunner(ws.dir('home'));
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

const hookBody = (path: string, extra: Record<string, unknown> = {}) => ({
  type: 'gitea',
  active: true,
  config: { url: `${receiverUrl}${path}`, content_type: 'json', secret: SECRET },
  ...extra,
});

describe('/admin/hooks', () => {
  it('is for site administrators with an admin-scoped token', async () => {
    expectApiError(await api.get('/admin/hooks'), 401);
    expectApiError(await api.get('/admin/hooks', { basic: alice }), 403);
    const repoToken = await createToken(suite, admin, ['read:repository']);
    expectApiError(await api.get('/admin/hooks', { token: repoToken }), 403, /required=\[read:admin\]/);
    const readAdmin = await createToken(suite, admin, ['read:admin']);
    expect((await api.get('/admin/hooks', { token: readAdmin })).status).toBe(200);
    expectApiError(await api.post('/admin/hooks', { token: readAdmin, body: hookBody('/x') }), 403, /write:admin/);
  });

  it('creates system and default hooks (trailing slash accepted), lists them by type, edits and deletes them', async () => {
    const system = await api.post('/admin/hooks/', {
      basic: admin,
      body: hookBody('/system-unused', { config: { url: `${receiverUrl}/s`, content_type: 'json', is_system_webhook: 'true' }, active: false }),
    });
    expect(system.status, system.text).toBe(201);
    assertMatchesDefinition('Hook', system.body);
    expect(system.body).toMatchObject({ type: 'gitea', active: false, is_system_webhook: true, events: ['push'] });
    expect(system.body.config.secret).toBeUndefined();

    const dflt = await api.post('/admin/hooks', {
      basic: admin,
      body: hookBody('/default-unused', { active: false, config: { url: `${receiverUrl}/d`, content_type: 'form', is_system_webhook: false } }),
    });
    expect(dflt.status, dflt.text).toBe(201);

    const systems = await api.get('/admin/hooks', { basic: admin });
    expect(systems.status).toBe(200);
    expect(systems.headers.get('x-total-count')).toBe(String(systems.body.length));
    expect(systems.body.map((h: { id: number }) => h.id)).toContain(system.body.id);
    expect(systems.body.map((h: { id: number }) => h.id)).not.toContain(dflt.body.id);
    const defaults = await api.get('/admin/hooks?type=default', { basic: admin });
    expect(defaults.body.map((h: { id: number }) => h.id)).toContain(dflt.body.id);
    const all = await api.get('/admin/hooks?type=all', { basic: admin });
    expect(all.body.length).toBe(systems.body.length + defaults.body.length);
    expectApiError(await api.get('/admin/hooks?type=repository', { basic: admin }), 422, /system, default, all/);

    const edited = await api.patch(`/admin/hooks/${system.body.id}`, { basic: admin, body: { branch_filter: 'main' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ branch_filter: 'main', active: false, events: ['push'], is_system_webhook: true });
    expect((await api.delete(`/admin/hooks/${system.body.id}`, { basic: admin })).status).toBe(204);
    expectApiError(await api.get(`/admin/hooks/${system.body.id}`, { basic: admin }), 404);
    expect((await api.delete(`/admin/hooks/${dflt.body.id}`, { basic: admin })).status).toBe(204);
  });

  it('refuses invalid hooks with 422 and a message', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'jenkins', config: { url: 'https://e.com', content_type: 'json' } }, /Invalid hook type/],
      [{ type: 'gitea', config: { content_type: 'json' } }, /Missing config option: url/],
      [{ type: 'gitea', config: { url: 'https://e.com' } }, /Missing config option: content_type/],
      [{ type: 'gitea', config: { url: 'ftp://e.com', content_type: 'json' } }, /Invalid url/],
      [{ type: 'gitea', config: { url: 'https://e.com', content_type: 'json' }, branch_filter: '[main' }, /branch_filter/],
      [{ type: 'gitea', config: { url: 'https://e.com', content_type: 'json' }, events: ['pushes'] }, /pushes/],
      [{ type: 'gitea', config: { url: 'https://e.com', content_type: 'json', is_system_webhook: 'maybe' } }, /is_system_webhook/],
      [{ config: { url: 'https://e.com', content_type: 'json' } }, /type/],
    ];
    for (const [body, message] of cases) expectApiError(await api.post('/admin/hooks', { basic: admin, body }), 422, message);
    expectApiError(await api.get('/admin/hooks/abc', { basic: admin }), 400);
  });
});

describe('repository hooks and deliveries', () => {
  let repo: string;
  let clone: string;

  it('copies default hooks into a new repository before it answers 201; a push is delivered, signed', async () => {
    const dflt = await api.post('/admin/hooks', { basic: admin, body: hookBody('/default', { events: ['push', 'create'] }) });
    expect(dflt.status, dflt.text).toBe(201);
    repo = uniqueName('hooked');
    const created = await api.post('/user/repos', { basic: alice, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const hooks = await api.get(`/repos/${alice.username}/${repo}/hooks`, { basic: alice });
    expect(hooks.status, hooks.text).toBe(200);
    const copy = hooks.body.find((h: { config: { url: string } }) => h.config.url === `${receiverUrl}/default`);
    expect(copy, hooks.text).toBeDefined();
    expect(copy.id).not.toBe(dflt.body.id);
    expect(copy.events.sort()).toEqual(['create', 'push']);
    await api.delete(`/admin/hooks/${dflt.body.id}`, { basic: admin });

    clone = ws.dir('clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password }), clone]);
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: clone });
    const sha = await commitAll(git, clone, { 'x.txt': 'x\n' }, 'add x');
    await git.ok(['push', '-q', 'origin', 'feature/x'], { cwd: clone });

    const create = await waitFor(() => at('/default').find((r) => r.headers['x-gitea-event'] === 'create'), 'create delivery');
    expect(await signatureOk(create)).toBe(true);
    expect(create.json).toMatchObject({ ref: 'feature/x', ref_type: 'branch', sha });
    const push = await waitFor(() => at('/default').find((r) => r.headers['x-gitea-event'] === 'push'), 'push delivery');
    expect(await signatureOk(push)).toBe(true);
    expect(push.headers['x-github-hook-id']).toBe(String(copy.id));
    expect(push.json).toMatchObject({ ref: 'refs/heads/feature/x', after: sha, repository: { full_name: `${alice.username}/${repo}` } });
    expect(push.json.head_commit.id).toBe(sha);
  });

  it('repository admins create hooks; the test route sends the default branch head; Octokit lists, reads and redelivers', async () => {
    expectApiError(await api.get(`/repos/${alice.username}/${repo}/hooks`, { basic: stranger }), 403);
    expectApiError(await api.get(`/repos/${alice.username}/${repo}/hooks`), 401);
    const hook = await api.post(`/repos/${alice.username}/${repo}/hooks`, { basic: alice, body: hookBody('/repo', { events: ['issues'] }) });
    expect(hook.status, hook.text).toBe(201);
    assertMatchesDefinition('Hook', hook.body);

    const test = await api.post(`/repos/${alice.username}/${repo}/hooks/${hook.body.id}/tests`, { basic: alice });
    expect(test.status, test.text).toBe(204);
    const tested = await waitFor(() => at('/repo')[0], 'test delivery');
    const main = await api.get(`/repos/${alice.username}/${repo}/branches/main`, { basic: alice });
    expect(await signatureOk(tested)).toBe(true);
    expect(tested.json).toMatchObject({ ref: 'refs/heads/main', total_commits: 1 });
    expect(tested.json.head_commit.id).toBe(main.body.commit.id);

    const token = await createToken(suite, alice, ['write:repository']);
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: token });
    const params = { owner: alice.username, repo, hook_id: hook.body.id };
    const list = await waitFor(async () => {
      const r = await octokit.repos.listWebhookDeliveries(params);
      return r.data[0]?.status === 'OK' ? r : null;
    }, 'the delivery to be recorded');
    expect(list.data[0]).toMatchObject({ guid: tested.headers['x-github-delivery'], status_code: 200, event: 'push', redelivery: false });
    const one = await octokit.repos.getWebhookDelivery({ ...params, delivery_id: list.data[0].id });
    expect(one.data.request.headers).toMatchObject({ 'X-Gitea-Event': 'push' });
    const again = await octokit.repos.redeliverWebhookDelivery({ ...params, delivery_id: list.data[0].id });
    expect(again.status).toBe(202);
    const second = await waitFor(() => at('/repo')[1], 'the redelivery');
    expect(second.headers['x-github-delivery']).toBe(tested.headers['x-github-delivery']);
    expect(second.body).toBe(tested.body);
    const after = await waitFor(async () => {
      const r = await octokit.repos.getWebhookDelivery({ ...params, delivery_id: list.data[0].id });
      return r.data.redelivery && r.data.status === 'OK' ? r : null;
    }, 'the redelivery to be recorded');
    expect(after.data.guid).toBe(list.data[0].guid);
  });

  it('a fork is delivered to the source repository\'s fork hooks: forkee is the new fork (as GitHub)', async () => {
    const hook = await api.post(`/repos/${alice.username}/${repo}/hooks`, { basic: alice, body: hookBody('/fork', { events: ['fork'] }) });
    expect(hook.status, hook.text).toBe(201);
    const fork = await api.post(`/repos/${alice.username}/${repo}/forks`, { basic: stranger, body: {} });
    expect(fork.status, fork.text).toBe(202);
    const delivery = await waitFor(() => at('/fork')[0], 'fork delivery');
    expect(await signatureOk(delivery)).toBe(true);
    expect(delivery.headers).toMatchObject({ 'x-gitea-event': 'fork', 'x-github-event': 'fork' });
    expect(delivery.json).toMatchObject({
      forkee: { id: fork.body.id, full_name: `${stranger.username}/${repo}`, fork: true },
      repository: { full_name: `${alice.username}/${repo}`, forks_count: 1 },
      sender: { login: stranger.username },
    });
    // Hooks that do not ask for forks (the issues hook above) get nothing.
    expect(at('/repo').some((r) => r.headers['x-gitea-event'] === 'fork')).toBe(false);
  });
});

describe('/orgs/{org}/hooks', () => {
  it('organization owners manage them; others may not', async () => {
    const org = uniqueName('org');
    expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
    const hook = await api.post(`/orgs/${org}/hooks`, { basic: alice, body: hookBody('/org') });
    expect(hook.status, hook.text).toBe(201);
    const list = await api.get(`/orgs/${org}/hooks`, { basic: alice });
    expect(list.body.map((h: { id: number }) => h.id)).toEqual([hook.body.id]);
    expect(list.headers.get('x-total-count')).toBe('1');
    expectApiError(await api.get(`/orgs/${org}/hooks`, { basic: stranger }), 403);
    expectApiError(await api.get(`/orgs/${org}/hooks`), 401);
    expect((await api.get(`/orgs/${org}/hooks/${hook.body.id}`, { basic: admin })).status).toBe(200);
    expect((await api.delete(`/orgs/${org}/hooks/${hook.body.id}`, { basic: alice })).status).toBe(204);
  });
});

/**
 * Issue 9, items 1 and 12: events that once stopped the pipeline. A 512 KB comment (and its edit) on a public
 * repository by a user with no rights there, a push of 300 branches with long histories, and a branch named `-x`
 * all still produce their deliveries, and the events after them are delivered too.
 */
describe('large and odd events still reach webhooks', () => {
  let repo: string;
  let clone: string;
  const path = '/pipeline';
  const deliveries = (event: string) => at(path).filter((r) => r.event === event);

  beforeAll(async () => {
    repo = uniqueName('pipeline');
    const created = await api.post('/user/repos', { basic: alice, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const hook = await api.post(`/repos/${alice.username}/${repo}/hooks`, {
      basic: alice,
      body: hookBody(path, { events: ['push', 'create', 'delete', 'issues', 'issue_comment'] }),
    });
    expect(hook.status, hook.text).toBe(201);
    clone = ws.dir('pipeline-clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password }), clone]);
  });

  it('a 512 KB comment by a stranger and its edit are delivered (bodies cut), and so is the next event', async () => {
    const issue = await api.post(`/repos/${alice.username}/${repo}/issues`, { basic: alice, body: { title: 'big comments' } });
    expect(issue.status, issue.text).toBe(201);
    const body = 'é'.repeat(256 * 1024); // 512 KB of UTF-8
    const comment = await api.post(`/repos/${alice.username}/${repo}/issues/${issue.body.number}/comments`, { basic: stranger, body: { body } });
    expect(comment.status, comment.text).toBe(201);
    const edited = await api.patch(`/repos/${alice.username}/${repo}/issues/comments/${comment.body.id}`, {
      basic: stranger,
      body: { body: 'ü'.repeat(256 * 1024) },
    });
    expect(edited.status, edited.text).toBe(200);
    const closed = await api.patch(`/repos/${alice.username}/${repo}/issues/${issue.body.number}`, { basic: alice, body: { state: 'closed' } });
    expect(closed.status, closed.text).toBe(201);

    // The event after the big ones is delivered: nothing blocked the outbox.
    await waitFor(() => deliveries('issues').find((r) => r.json?.action === 'closed'), 'issue closed delivery');
    const created = await waitFor(() => deliveries('issue_comment').find((r) => r.json?.action === 'created'), 'comment created delivery');
    expect(created.json.comment.body.startsWith('éééé')).toBe(true);
    expect(created.json.comment.body.endsWith('… (cut)')).toBe(true);
    const edit = await waitFor(() => deliveries('issue_comment').find((r) => r.json?.action === 'edited'), 'comment edited delivery');
    expect(edit.json.comment.body.startsWith('üüüü')).toBe(true);
    expect(edit.json.changes.body.from.startsWith('éééé')).toBe(true);
    // The API still has the whole comment.
    const read = await api.get(`/repos/${alice.username}/${repo}/issues/comments/${comment.body.id}`, { basic: alice });
    expect(read.body.body).toBe('ü'.repeat(256 * 1024));
  });

  it('a push of 300 branches with long histories gets one push delivery per branch', async () => {
    // fast-import: 300 branches of 10 commits each with long messages and several files (several MB of event data).
    const base = await git.ok(['rev-parse', 'HEAD'], { cwd: clone });
    const lines: string[] = [];
    let mark = 0;
    for (let b = 0; b < 300; b++) {
      let parent = base;
      for (let c = 0; c < 10; c++) {
        const message = `branch ${b} commit ${c}\n\n${'a long explanation. '.repeat(40)}\n`;
        lines.push(`commit refs/heads/bulk/${b}`, `mark :${++mark}`, 'committer Alice <alice@example.com> 1700000000 +0000');
        lines.push(`data ${Buffer.byteLength(message)}`, message);
        lines.push(`from ${parent}`);
        for (let f = 0; f < 5; f++) {
          const content = `${b}-${c}-${f}\n`;
          lines.push(`M 100644 inline dir/file-${b}-${c}-${f}.txt`, `data ${content.length}`, content);
        }
        parent = `:${mark}`;
      }
    }
    await git.ok(['fast-import', '--quiet'], { cwd: clone, input: `${lines.join('\n')}\n` });
    await git.ok(['push', '-q', 'origin', 'refs/heads/bulk/*:refs/heads/bulk/*'], { cwd: clone, timeoutMs: 300_000 });

    const pushes = await waitFor(() => {
      const got = deliveries('push').filter((r) => String(r.json?.ref).startsWith('refs/heads/bulk/'));
      return got.length >= 300 ? got : null;
    }, '300 push deliveries', 240_000);
    expect(new Set(pushes.map((r) => r.json.ref)).size).toBe(300);
    const one = pushes.find((r) => r.json.ref === 'refs/heads/bulk/7')!;
    expect(one.json.total_commits).toBe(10);
    expect(one.json.commits.length).toBeGreaterThan(0);
  }, 400_000);

  it('a branch named -x gets its create and push deliveries', async () => {
    const sha = await commitAll(git, clone, { 'dash.txt': 'dash\n' }, 'on a branch named -x');
    await git.ok(['push', '-q', 'origin', `${sha}:refs/heads/-x`], { cwd: clone });
    const push = await waitFor(() => deliveries('push').find((r) => r.json?.ref === 'refs/heads/-x'), 'push delivery of -x');
    expect(push.json.after).toBe(sha);
    expect(push.json.head_commit.id).toBe(sha);
    const create = await waitFor(() => deliveries('create').find((r) => r.json?.ref === '-x'), 'create delivery of -x');
    expect(create.json.sha).toBe(sha);
    // The git helpers take it too: the branch and a file on it can be read.
    const branch = await api.get(`/repos/${alice.username}/${repo}/branches/-x`, { basic: alice });
    expect(branch.status, branch.text).toBe(200);
    expect(branch.body).toMatchObject({ name: '-x', commit: { id: sha } });
    const file = await api.get(`/repos/${alice.username}/${repo}/contents/dash.txt?ref=-x`, { basic: alice });
    expect(file.status, file.text).toBe(200);
    // Deleting it is a ref update like any other: its delete delivery arrives.
    await git.ok(['push', '-q', 'origin', ':refs/heads/-x'], { cwd: clone });
    await waitFor(() => deliveries('delete').find((r) => r.json?.ref === '-x'), 'delete delivery of -x');
  });
});
