/**
 * Comparing two refs (`GET …/compare/{basehead}`), renaming a branch (`PATCH …/branches/{branch}`) and a branch
 * deleted by `git push origin :branch` closing its pull requests, end to end over the whole suite with gitea-js,
 * plain HTTP for the error cases and real git pushes. Bodies are checked against the published description.
 * `[git] COMMITS_RANGE_SIZE` is 3 here, so the bound on the commits a comparison lists is seen with a few commits.
 */
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let alice: Account;
let bob: Account;
let receiver: WebhookReceiver;
let git: Git;
const ws = workspace('cairn-e2e-compare-rename-');

async function client(account: Account) {
  const token = await createToken(suite, account, ['all']);
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

/** A repository of alice's with a clone to push from. */
async function repoWithClone(prefix: string, body: Record<string, unknown> = {}): Promise<{ name: string; r: string; work: string }> {
  const name = uniqueName(prefix);
  const res = await api.post('/user/repos', { basic: alice, body: { name, auto_init: true, ...body } });
  expect(res.status, res.text).toBe(201);
  const work = ws.dir(`work-${name}`);
  await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, name, { username: alice.username, secret: alice.password }), work]);
  return { name, r: `/repos/${alice.username}/${name}`, work };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await startTestSuite({
    env: {
      ...FAST_PASSWORD_HASH,
      CAIRN__GIT__COMMITS_RANGE_SIZE: '3',
      CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback',
      CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms',
    },
  });
  api = http(suite);
  admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  bob = await createUser(suite, admin, uniqueName('bob'));
  git = gitRunner(ws.dir('home'));
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('GET /repos/{owner}/{repo}/compare/{basehead}', () => {
  it('lists the commits head adds to base, with files and stats, for branches, tags and commits', async () => {
    const { name, r, work } = await repoWithClone('compare');
    const base = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    await git.ok(['tag', 'v1', base], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
    const one = await commitAll(git, work, { 'a.txt': 'a\n' }, 'one');
    const two = await commitAll(git, work, { 'a.txt': 'a\nb\n', 'b.txt': 'b\n' }, 'two');
    await git.ok(['push', '-q', 'origin', 'feature', 'refs/tags/v1'], { cwd: work });

    const gitea = await client(alice);
    const res = await gitea.repos.repoCompareDiff(alice.username, name, 'main...feature');
    expect(res.status).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/compare/{basehead}', 200, res.data);
    expect(res.data.total_commits).toBe(2);
    expect(res.data.commits?.map((c) => c.sha)).toEqual([two, one]);
    const newest = res.data.commits![0];
    expect(newest.files?.map((f) => f.filename).sort()).toEqual(['a.txt', 'b.txt']);
    expect(newest.stats).toEqual({ total: 2, additions: 2, deletions: 0 });
    expect(newest.commit?.message).toMatch(/^two/);
    expect(newest.commit?.verification).toMatchObject({ verified: false });

    // `..`, a head alone (against the default branch), the head's owner named, a tag and commit ids.
    for (const basehead of ['main..feature', 'feature', `${alice.username}:feature`, `${alice.username}/${name}:feature`, `v1...${two}`, `${base.slice(0, 10)}...${two}`]) {
      const again = await api.get(`${r}/compare/${basehead}`, { basic: alice });
      expect(again.status, `${basehead}: ${again.text}`).toBe(200);
      expect(again.body.total_commits, basehead).toBe(2);
    }
    const behind = await gitea.repos.repoCompareDiff(alice.username, name, 'feature...main');
    expect(behind.data).toEqual({ total_commits: 0, commits: [] });
    const lean = await api.get(`${r}/compare/main...feature?files=false&verification=false`, { basic: alice });
    expect(lean.body.commits[0]).toMatchObject({ files: null, stats: { total: 2 }, commit: { verification: null } });
  });

  it('lists at most COMMITS_RANGE_SIZE commits (the newest) and counts them all', async () => {
    const { r, work } = await repoWithClone('compare-many');
    await git.ok(['checkout', '-q', '-b', 'long'], { cwd: work });
    const shas: string[] = [];
    for (let i = 0; i < 5; i++) shas.push(await commitAll(git, work, { 'n.txt': `${i}\n` }, `commit ${i}`));
    await git.ok(['push', '-q', 'origin', 'long'], { cwd: work });
    const res = await api.get(`${r}/compare/main...long`, { basic: alice });
    expect(res.status, res.text).toBe(200);
    expect(res.body.total_commits).toBe(5);
    expect(res.body.commits.map((c: { sha: string }) => c.sha)).toEqual(shas.slice(2).reverse());
  });

  it('answers 404 for unknown refs, other repositories, malformed input and a private repository', async () => {
    const { r } = await repoWithClone('compare-bad');
    const secret = await repoWithClone('compare-secret', { private: true });
    const cases: [string, string][] = [
      [`${r}/compare/main...nope`, 'head ref "nope" not found'],
      [`${r}/compare/nope...main`, 'base ref "nope" not found'],
      [`${r}/compare/main...${bob.username}:main`, `comparing with another repository ("${bob.username}") is not supported`],
      [`${r}/compare/main...a:b:c`, 'invalid compare head "a:b:c"'],
      [`${r}/compare/main...`, 'invalid compare "main...": base and head are required'],
      [`${r}/compare/main...bad..name..x`, ''],
      [`${r}/compare/${'f'.repeat(40)}...main`, `base ref "${'f'.repeat(40)}" not found`],
    ];
    for (const [path, message] of cases) {
      const res = await api.get(path, { basic: alice });
      expect(res.status, `${path}: ${res.text}`).toBe(404);
      if (message) expect(res.body.message).toBe(message);
    }
    expect((await api.get(`${secret.r}/compare/main...main`, { basic: bob })).status).toBe(404);
    expect((await api.get(`${secret.r}/compare/main...main`, { basic: alice })).status).toBe(200);
  });
});

describe('PATCH /repos/{owner}/{repo}/branches/{branch} (rename)', () => {
  it('renames the branch; its rule, its pull requests and the webhooks follow (gitea-js)', async () => {
    const { name, r, work } = await repoWithClone('rename');
    const hook = await api.post(`${r}/hooks`, {
      basic: alice,
      body: { type: 'gitea', active: true, events: ['create', 'delete', 'push'], config: { url: `${receiver.url}/${name}`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
    const tip = await commitAll(git, work, { 'f.txt': 'f\n' }, 'feature');
    await git.ok(['push', '-q', 'origin', 'feature'], { cwd: work });
    const deliveriesOf = async () =>
      ((await api.get(`${r}/hooks/${hook.body.id}/deliveries?limit=50`, { basic: alice })).body as { event: string }[]).map((d) => d.event);
    await waitFor(async () => ((await deliveriesOf()).includes('push') ? true : null), 'the push of feature recorded');
    const pr = await api.post(`${r}/pulls`, { basic: alice, body: { title: 'feature', head: 'feature', base: 'main' } });
    expect(pr.status, pr.text).toBe(201);
    const rule = await api.post(`${r}/branch_protections`, { basic: alice, body: { rule_name: 'feature' } });
    expect(rule.status, rule.text).toBe(201);

    const gitea = await client(alice);
    const renamed = await gitea.repos.repoUpdateBranch(alice.username, name, 'feature', { name: 'feature-2' });
    expect(renamed.status).toBe(204);
    expect((await api.get(`${r}/branches/feature`, { basic: alice })).status).toBe(404);
    expect((await api.get(`${r}/branches/feature-2`, { basic: alice })).body.commit.id).toBe(tip);
    expect((await api.get(`${r}/branch_protections/feature`, { basic: alice })).status).toBe(404);
    expect((await api.get(`${r}/branch_protections/feature-2`, { basic: alice })).status).toBe(200);
    const pull = await api.get(`${r}/pulls/${pr.body.number}`, { basic: alice });
    expect(pull.body).toMatchObject({ state: 'open', head: { ref: 'feature-2', sha: tip }, base: { ref: 'main' } });
    await git.ok(['fetch', '-q', '--prune', 'origin'], { cwd: work });
    expect(await git.ok(['rev-parse', 'origin/feature-2'], { cwd: work })).toBe(tip);

    const deliveries = await waitFor(() => {
      const seen = receiver.received.filter((d) => d.path === `/${name}`).map((d) => `${d.event}:${d.json.ref}`);
      return seen.includes('delete:feature') && seen.includes('create:feature-2') ? seen : null;
    }, 'delete and create deliveries');
    expect(deliveries).toContain('create:feature-2');
    // As Gitea: a rename is announced as delete and create only, never as a push. The deliveries of one event are
    // stored by one statement, so once both are listed, a push of the rename would be listed too.
    expect((await deliveriesOf()).sort()).toEqual(['create', 'create', 'delete', 'push']);
  });

  it('renaming the default branch moves the default branch, HEAD and the pull requests into it', async () => {
    const { name, r, work } = await repoWithClone('rename-default');
    await git.ok(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await commitAll(git, work, { 't.txt': 't\n' }, 'topic');
    await git.ok(['push', '-q', 'origin', 'topic'], { cwd: work });
    const pr = await api.post(`${r}/pulls`, { basic: alice, body: { title: 'topic', head: 'topic', base: 'main' } });
    expect(pr.status, pr.text).toBe(201);

    const res = await api.patch(`${r}/branches/main`, { basic: alice, body: { name: 'trunk' } });
    expect(res.status, res.text).toBe(204);
    expect((await api.get(r, { basic: alice })).body.default_branch).toBe('trunk');
    const symref = await git.ok(['ls-remote', '--symref', 'origin', 'HEAD'], { cwd: work });
    expect(symref).toContain('ref: refs/heads/trunk\tHEAD');
    const pull = await api.get(`${r}/pulls/${pr.body.number}`, { basic: alice });
    expect(pull.body).toMatchObject({ state: 'open', base: { ref: 'trunk' }, head: { ref: 'topic' } });
    expect((await api.get(`${r}/compare/trunk...topic`, { basic: alice })).body.total_commits).toBe(1);
    expect(name).toBeTruthy();
  });

  it("refuses what Gitea refuses: taken or invalid names, unknown branches, writers on protected branches, archived repositories", async () => {
    const { name, r, work } = await repoWithClone('rename-bad');
    for (const branch of ['side', 'release/1', 'guarded']) {
      await git.ok(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work });
    }
    const taken = 'Cannot rename a branch using the same name or rename to a branch that already exists.';
    const patch = (branch: string, body: unknown, who: Account = alice) => api.patch(`${r}/branches/${branch}`, { basic: who, body });
    let res = await patch('side', { name: 'main' });
    expect([res.status, res.body.message]).toEqual([422, taken]);
    res = await patch('side', { name: 'side' });
    expect([res.status, res.body.message]).toEqual([422, taken]);
    res = await patch('nope', { name: 'other' });
    expect([res.status, res.body.message]).toEqual([404, "Branch doesn't exist."]);
    expect((await patch('side', { name: 'bad..name' })).status).toBe(422);
    expect((await patch('side', { name: 'x'.repeat(101) })).status).toBe(422);
    expect((await patch('side', {})).status).toBe(422);
    expect((await patch('side', { name: 'by-bob' }, bob)).status).toBe(403);

    expect((await api.post(`${r}/branch_protections`, { basic: alice, body: { rule_name: 'release/*' } })).status).toBe(201);
    expect((await api.post(`${r}/branch_protections`, { basic: alice, body: { rule_name: 'guarded' } })).status).toBe(201);
    res = await patch('release/1', { name: 'release-one' });
    expect([res.status, res.body.message]).toEqual([403, 'Branch is protected by glob-based protection rules.']);
    const carol = await createUser(suite, admin, uniqueName('carol'));
    expect((await api.put(`${r}/collaborators/${carol.username}`, { basic: alice, body: { permission: 'write' } })).status).toBe(204);
    const adminOnly = 'User must be a repo or site admin to rename default or protected branches.';
    res = await patch('guarded', { name: 'guarded-2' }, carol);
    expect([res.status, res.body.message]).toEqual([403, adminOnly]);
    res = await patch('main', { name: 'trunk' }, carol);
    expect([res.status, res.body.message]).toEqual([403, adminOnly]);
    expect((await patch('side', { name: 'by-carol' }, carol)).status).toBe(204);

    expect((await api.patch(r, { basic: alice, body: { archived: true } })).status).toBe(200);
    expect((await patch('by-carol', { name: 'side' })).status).toBe(423);
    expect((await api.get(`${r}/branches/by-carol`, { basic: alice })).status).toBe(200);
    expect(name).toBeTruthy();
  });
});

describe('a branch deleted by a push', () => {
  it('closes the open pull requests from and into it, as the branch API does', async () => {
    const { r, work } = await repoWithClone('push-delete');
    await git.ok(['checkout', '-q', '-b', 'doomed'], { cwd: work });
    await commitAll(git, work, { 'd.txt': 'd\n' }, 'doomed');
    await git.ok(['push', '-q', 'origin', 'doomed'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'stacked'], { cwd: work });
    await commitAll(git, work, { 's.txt': 's\n' }, 'stacked');
    await git.ok(['push', '-q', 'origin', 'stacked'], { cwd: work });
    const from = await api.post(`${r}/pulls`, { basic: alice, body: { title: 'doomed', head: 'doomed', base: 'main' } });
    const into = await api.post(`${r}/pulls`, { basic: alice, body: { title: 'stacked', head: 'stacked', base: 'doomed' } });
    const other = await api.post(`${r}/pulls`, { basic: alice, body: { title: 'stacked on main', head: 'stacked', base: 'main' } });
    for (const pr of [from, into, other]) expect(pr.status, pr.text).toBe(201);

    await git.ok(['push', '-q', 'origin', ':doomed'], { cwd: work });
    for (const pr of [from, into]) {
      await waitFor(async () => {
        const res = await api.get(`${r}/pulls/${pr.body.number}`, { basic: alice });
        return res.body.state === 'closed' ? res : null;
      }, `pull request #${pr.body.number} closed`);
    }
    const closed = await api.get(`${r}/pulls/${from.body.number}`, { basic: alice });
    expect(closed.body).toMatchObject({ state: 'closed', merged: false });
    expect((await api.get(`${r}/pulls/${other.body.number}`, { basic: alice })).body.state).toBe('open');
  });
});
