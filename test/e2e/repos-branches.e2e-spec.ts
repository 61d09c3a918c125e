/**
 * Repositories and branches (issue 14, items 5 and 6) end to end, over the whole suite: `GET /repositories/{id}` with
 * its visibility rules, topics (Gitea's validation, `topics` in Repository JSON, `topic=true` search), search filters
 * and order, archived repositories (a real `git push` refused over HTTP and SSH with a visible message, API writes
 * answered 423), and branches created and deleted through the API (from a branch, tag or commit; the default branch
 * kept; `create`/`delete` webhooks; the open pull requests of a deleted branch closed). Clients: `gitea-js` where it
 * has the operation, plain HTTP for the error cases.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitAll, generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, sshCloneUrl, workspace, type Git, type KeyPair,
} from '../support/git.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let alice: Account;
let bob: Account;
let aliceKey: KeyPair;
let receiver: WebhookReceiver;
let git: Git;
const ws = workspace('cairn-e2e-repos-branches-');

/** gitea-js for one account (a token with every scope). */
async function client(account: Account) {
  const token = await createToken(suite, account, ['all']);
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

async function createRepo(owner: Account, body: Record<string, unknown>): Promise<{ id: number; name: string }> {
  const res = await api.post('/user/repos', { basic: owner, body: { auto_init: true, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  bob = await createUser(suite, admin, uniqueName('bob'));
  git = gitRunner(ws.dir('home'));
  aliceKey = await generateSshKey(ws.dir('alice-key'), 'alice@e2e');
  const key = await api.post('/user/keys', { basic: alice, body: { title: 'laptop', key: aliceKey.publicKey } });
  expect(key.status, key.text).toBe(201);
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('GET /repositories/{id}', () => {
  it('answers what the caller may see, 404 otherwise (as a private repository by name)', async () => {
    const open = await createRepo(alice, { name: uniqueName('open') });
    const secret = await createRepo(alice, { name: uniqueName('secret'), private: true });
    const gitea = await client(alice);
    const own = await gitea.repositories.repoGetById(secret.id);
    expect(own.data).toMatchObject({ id: secret.id, name: secret.name, private: true, permissions: { admin: true } });

    const asBob = await api.get(`/repositories/${open.id}`, { basic: bob });
    expect(asBob.status, asBob.text).toBe(200);
    expect(asBob.body).toMatchObject({ id: open.id, permissions: { admin: false, push: false, pull: true } });
    expect((await api.get(`/repositories/${open.id}`)).status).toBe(200);
    expect((await api.get(`/repositories/${secret.id}`, { basic: bob })).status).toBe(404);
    expect((await api.get(`/repositories/${secret.id}`)).status).toBe(404);
    expect((await api.get('/repositories/999999999', { basic: alice })).status).toBe(404);
    expect((await api.get(`/repositories/${secret.id}`, { basic: admin })).status).toBe(200);
  });
});

describe('topics', () => {
  it("follow Gitea's rules, show in Repository JSON and are searchable with topic=true", async () => {
    const repo = await createRepo(alice, { name: uniqueName('topical') });
    const r = `/repos/${alice.username}/${repo.name}`;
    const gitea = await client(alice);
    // Sanitised as Gitea does: trimmed, lower-cased, duplicates and empty ones dropped; listed by name.
    expect((await gitea.repos.repoUpdateTopics(alice.username, repo.name, { topics: [' Zeta ', 'alpha', 'ALPHA', ''] })).status).toBe(204);
    expect((await gitea.repos.repoListTopics(alice.username, repo.name)).data).toEqual({ topics: ['alpha', 'zeta'] });
    expect((await gitea.repos.repoAddTopic(alice.username, repo.name, 'Mid.Dle-1')).status).toBe(204);
    // Adding one it has already changes nothing.
    expect((await api.put(`${r}/topics/alpha`, { basic: alice })).status).toBe(204);
    expect((await api.get(r, { basic: alice })).body.topics).toEqual(['alpha', 'mid.dle-1', 'zeta']);

    const invalid = await api.put(`${r}/topics`, { basic: alice, body: { topics: ['ok', '-bad', 'a'.repeat(36)] } });
    expect(invalid.status, invalid.text).toBe(422);
    expect(invalid.body.message).toBe('Topic names are invalid');
    expect(invalid.body.errors).toEqual(['-bad', 'a'.repeat(36)]);
    const many = await api.put(`${r}/topics`, { basic: alice, body: { topics: Array.from({ length: 26 }, (_, i) => `t${i}`) } });
    expect(many.status).toBe(422);
    expect(many.body.message).toBe('Exceeding maximum number of topics per repo');
    expect((await api.put(`${r}/topics/${encodeURIComponent('no way')}`, { basic: alice })).status).toBe(422);
    expect((await api.delete(`${r}/topics/absent`, { basic: alice })).status).toBe(404);
    // Only repository admins change topics; readers list them.
    expect((await api.put(`${r}/topics/x`, { basic: bob })).status).toBe(403);
    expect((await api.get(`${r}/topics`, { basic: bob })).body).toEqual({ topics: ['alpha', 'mid.dle-1', 'zeta'] });

    const full = await api.put(`${r}/topics`, { basic: alice, body: { topics: Array.from({ length: 25 }, (_, i) => `t${i}`) } });
    expect(full.status).toBe(204);
    const over = await api.put(`${r}/topics/one-more`, { basic: alice });
    expect(over.status).toBe(422);
    expect(over.body.message).toBe('Exceeding maximum allowed topics per repo.');
    expect((await gitea.repos.repoDeleteTopic(alice.username, repo.name, 't7')).status).toBe(204);

    const marker = uniqueName('topic').toLowerCase();
    await api.put(`${r}/topics`, { basic: alice, body: { topics: [marker, 'shared'] } });
    const found = await gitea.repos.repoSearch({ q: marker, topic: true });
    expect(found.data.ok).toBe(true);
    expect(found.data.data?.map((x) => x.name)).toEqual([repo.name]);
    expect(found.data.data?.[0].topics).toEqual([marker, 'shared'].sort());
    // Without topic=true the keyword matches names, not topics.
    expect((await gitea.repos.repoSearch({ q: marker })).data.data).toEqual([]);
  });
});

describe('search', () => {
  it('filters by team and archived state, puts a priority owner first, sorts', async () => {
    const stem = uniqueName('srch').toLowerCase();
    const a1 = await createRepo(alice, { name: `${stem}-b` });
    const a2 = await createRepo(alice, { name: `${stem}-d` });
    const b1 = await createRepo(bob, { name: `${stem}-a` });
    const b2 = await createRepo(bob, { name: `${stem}-c` });
    const names = async (query: string, as: Account = alice) => {
      const res = await api.get(`/repos/search?q=${stem}${query}`, { basic: as });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as { name: string }[]).map((x) => x.name);
    };
    expect(await names('')).toEqual([b1.name, a1.name, b2.name, a2.name]);
    expect(await names('&sort=alpha&order=desc')).toEqual([a2.name, b2.name, a1.name, b1.name]);
    expect(await names('&sort=id&order=asc')).toEqual([a1.name, a2.name, b1.name, b2.name]);
    const bobId = (await api.get(`/users/${bob.username}`, { basic: alice })).body.id;
    expect(await names(`&priority_owner_id=${bobId}`)).toEqual([b1.name, b2.name, a1.name, a2.name]);
    expect(await names(`&priority_owner_id=${bobId}&limit=3&page=1`)).toEqual([b1.name, b2.name, a1.name]);
    expect(await names(`&priority_owner_id=${bobId}&limit=3&page=2`)).toEqual([a2.name]);
    expect((await api.get(`/repos/search?q=${stem}&sort=stars`, { basic: alice })).status).toBe(422);

    await api.patch(`/repos/${alice.username}/${a2.name}`, { basic: alice, body: { archived: true } });
    expect(await names('&archived=true')).toEqual([a2.name]);
    expect(await names('&archived=false')).toEqual([b1.name, a1.name, b2.name]);

    // team_id: an organization's team given one repository.
    const org = uniqueName('org');
    expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
    const team = await api.post(`/orgs/${org}/teams`, {
      basic: alice, body: { name: 'devs', permission: 'read', units: ['repo.code'] },
    });
    expect(team.status, team.text).toBe(201);
    const granted = (await api.post(`/orgs/${org}/repos`, { basic: alice, body: { name: `${stem}-team` } })).body;
    expect((await api.post(`/orgs/${org}/repos`, { basic: alice, body: { name: `${stem}-other` } })).status).toBe(201);
    const grant = await api.put(`/teams/${team.body.id}/repos/${org}/${granted.name}`, { basic: alice });
    expect(grant.status, grant.text).toBe(204);
    expect(await names(`&team_id=${team.body.id}`)).toEqual([`${stem}-team`]);
  });
});

describe('archived repositories', () => {
  it('refuse pushes over HTTP and SSH with a visible message, and API writes with 423', async () => {
    const repo = await createRepo(alice, { name: uniqueName('frozen') });
    const r = `/repos/${alice.username}/${repo.name}`;
    const work = ws.dir(`work-${repo.name}`);
    const httpUrl = httpCloneUrl(suite.baseUrl, alice.username, repo.name, { username: alice.username, secret: alice.password });
    await git.ok(['clone', '-q', httpUrl, work]);
    await commitAll(git, work, { 'more.txt': 'more\n' }, 'more');
    const gitea = await client(alice);
    const archived = await gitea.repos.repoEdit(alice.username, repo.name, { archived: true });
    expect(archived.data).toMatchObject({ archived: true });
    expect(archived.data.archived_at).not.toBe('1970-01-01T00:00:00Z');

    const overHttp = await git.try(['push', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
    expect(overHttp.code).not.toBe(0);
    expect(overHttp.stderr).toContain(`Repo: ${alice.username}/${repo.name} is archived.`);
    const sshEnv = { GIT_SSH_COMMAND: gitSshCommand(aliceKey.privateKeyPath, suite.sshPort) };
    const overSsh = await git.try(['push', sshCloneUrl(suite.sshPort, alice.username, repo.name), 'HEAD:refs/heads/main'], {
      cwd: work, env: sshEnv,
    });
    expect(overSsh.code).not.toBe(0);
    expect(overSsh.stderr).toContain(`Repo: ${alice.username}/${repo.name} is archived.`);
    // Reading still works.
    expect((await git.try(['fetch', '-q', 'origin'], { cwd: work })).code).toBe(0);

    for (const [method, path, body] of [
      ['POST', `${r}/issues`, { title: 'no' }],
      ['POST', `${r}/pulls`, { title: 'no', head: 'main', base: 'main' }],
      ['POST', `${r}/branches`, { new_branch_name: 'no' }],
      ['POST', `${r}/contents/x.txt`, { content: Buffer.from('x').toString('base64') }],
    ] as const) {
      const res = await api.request(method, path, { basic: alice, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(423);
      expect(res.body.message).toBe('repo is archived');
    }
    // Unarchived, it takes pushes again.
    await gitea.repos.repoEdit(alice.username, repo.name, { archived: false });
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main'], { cwd: work });
  });
});

describe('branches through the API', () => {
  it('creates from a branch, tag or commit; refuses clashes; keeps the default branch; sends create/delete hooks', async () => {
    const repo = await createRepo(alice, { name: uniqueName('branchy') });
    const r = `/repos/${alice.username}/${repo.name}`;
    const hook = await api.post(`${r}/hooks`, {
      basic: alice,
      body: { type: 'gitea', active: true, events: ['create', 'delete'], config: { url: `${receiver.url}/${repo.name}`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const work = ws.dir(`work-${repo.name}`);
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo.name, { username: alice.username, secret: alice.password }), work]);
    const first = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    await git.ok(['tag', 'v1.0', first], { cwd: work });
    const second = await commitAll(git, work, { 'two.txt': '2\n' }, 'two');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main', 'refs/tags/v1.0'], { cwd: work });

    const gitea = await client(alice);
    const fromDefault = await gitea.repos.repoCreateBranch(alice.username, repo.name, { new_branch_name: 'from-default' });
    expect(fromDefault.status).toBe(201);
    expect(fromDefault.data).toMatchObject({ name: 'from-default', commit: { id: second }, user_can_push: true });
    const fromTag = await gitea.repos.repoCreateBranch(alice.username, repo.name, { new_branch_name: 'from/tag', old_ref_name: 'v1.0' });
    expect(fromTag.data.commit?.id).toBe(first);
    const fromCommit = await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'from-sha', old_ref_name: first.slice(0, 10) } });
    expect(fromCommit.status, fromCommit.text).toBe(201);
    expect(fromCommit.body.commit.id).toBe(first);
    const fromBranch = await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'from-branch', old_branch_name: 'from/tag' } });
    expect(fromBranch.body.commit.id).toBe(first);

    const again = await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'from-default' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The branch already exists.');
    expect((await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'v1.0' } })).status).toBe(409);
    expect((await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'x', old_branch_name: 'nope' } })).status).toBe(404);
    expect((await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'x', old_ref_name: 'nope' } })).status).toBe(404);
    expect((await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'bad..name' } })).status).toBe(422);
    expect((await api.post(`${r}/branches`, { basic: bob, body: { new_branch_name: 'by-bob' } })).status).toBe(403);
    await git.ok(['fetch', '-q', 'origin'], { cwd: work });
    expect(await git.ok(['rev-parse', 'origin/from/tag'], { cwd: work })).toBe(first);

    const main = await api.delete(`${r}/branches/main`, { basic: alice });
    expect(main.status).toBe(403);
    expect(main.body.message).toBe('can not delete default branch');
    expect((await gitea.repos.repoDeleteBranch(alice.username, repo.name, 'from/tag')).status).toBe(204);
    expect((await api.get(`${r}/branches/from/tag`, { basic: alice })).status).toBe(404);
    expect((await api.delete(`${r}/branches/from/tag`, { basic: alice })).status).toBe(404);

    const events = await waitFor(() => {
      const mine = receiver.received.filter((d) => d.path === `/${repo.name}`);
      const seen = mine.map((d) => `${d.event}:${d.json.ref}`);
      return seen.includes('create:from/tag') && seen.includes('delete:from/tag') ? mine : null;
    }, 'create and delete deliveries');
    const created = events.find((d) => d.event === 'create' && d.json.ref === 'from/tag')!;
    expect(created.json).toMatchObject({ ref_type: 'branch', sha: first, repository: { name: repo.name } });
  });

  it('deleting the head branch of an open pull request closes it', async () => {
    const repo = await createRepo(alice, { name: uniqueName('prs') });
    const r = `/repos/${alice.username}/${repo.name}`;
    const work = ws.dir(`work-${repo.name}`);
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo.name, { username: alice.username, secret: alice.password }), work]);
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
    await commitAll(git, work, { 'f.txt': 'f\n' }, 'feature');
    await git.ok(['push', '-q', 'origin', 'feature'], { cwd: work });
    const pr = await api.post(`${r}/pulls`, { basic: alice, body: { title: 'feature', head: 'feature', base: 'main' } });
    expect(pr.status, pr.text).toBe(201);
    expect((await api.delete(`${r}/branches/feature`, { basic: alice })).status).toBe(204);
    const after = await api.get(`${r}/pulls/${pr.body.number}`, { basic: alice });
    expect(after.body).toMatchObject({ state: 'closed', merged: false });
  });
});

describe('GET /users/{username}/orgs/{org}/permissions', () => {
  it('says what a user may do in an organization the caller can see', async () => {
    const org = uniqueName('perm-org');
    expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
    const team = await api.post(`/orgs/${org}/teams`, {
      basic: alice, body: { name: 'writers', permission: 'write', units: ['repo.code'], can_create_org_repo: false },
    });
    expect(team.status, team.text).toBe(201);
    const carol = await createUser(suite, admin, uniqueName('carol'));
    expect((await api.put(`/teams/${team.body.id}/members/${carol.username}`, { basic: alice })).status).toBe(204);

    const gitea = await client(bob);
    const owner = await gitea.users.orgGetUserPermissions(alice.username, org);
    expect(owner.data).toEqual({ is_owner: true, is_admin: true, can_write: true, can_read: true, can_create_repository: true });
    const writer = await api.get(`/users/${carol.username}/orgs/${org}/permissions`, { basic: bob });
    expect(writer.body).toEqual({ is_owner: false, is_admin: false, can_write: true, can_read: true, can_create_repository: false });
    const outsider = await api.get(`/users/${bob.username}/orgs/${org}/permissions`, { basic: carol });
    expect(outsider.body).toEqual({ is_owner: false, is_admin: false, can_write: false, can_read: false, can_create_repository: false });
    expect((await api.get(`/users/nobody-${org}/orgs/${org}/permissions`, { basic: bob })).status).toBe(404);
    expect((await api.get(`/users/${bob.username}/orgs/${org}/permissions`)).status).toBe(401);

    // A private organization is hidden from non-members.
    const hidden = uniqueName('hidden-org');
    expect((await api.post('/orgs', { basic: alice, body: { username: hidden, visibility: 'private' } })).status).toBe(201);
    expect((await api.get(`/users/${alice.username}/orgs/${hidden}/permissions`, { basic: bob })).status).toBe(404);
    expect((await api.get(`/users/${alice.username}/orgs/${hidden}/permissions`, { basic: alice })).status).toBe(200);
  });
});

describe('forks', () => {
  it('copies branches and tags, shows fork/parent/forks_count, lists forks, refuses duplicates (gitea-js and Octokit)', async () => {
    const source = await createRepo(alice, { name: uniqueName('upstream'), description: 'the original' });
    const up = `/repos/${alice.username}/${source.name}`;
    const work = ws.dir(`work-${source.name}`);
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, source.name, { username: alice.username, secret: alice.password }), work]);
    await git.ok(['checkout', '-q', '-b', 'side'], { cwd: work });
    const side = await commitAll(git, work, { 's.txt': 's\n' }, 'side');
    await git.ok(['tag', 'v0.1'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'side', 'refs/tags/v0.1'], { cwd: work });

    const gitea = await client(bob);
    const forked = await gitea.repos.createFork(alice.username, source.name, {});
    expect(forked.status).toBe(202);
    expect(forked.data).toMatchObject({
      name: source.name, fork: true, description: 'the original', owner: { login: bob.username },
      parent: { id: source.id, full_name: `${alice.username}/${source.name}`, forks_count: 1 },
      permissions: { admin: true },
    });
    const mine = `/repos/${bob.username}/${source.name}`;
    expect((await api.get(`${mine}/branches/side`, { basic: bob })).body.commit.id).toBe(side);
    const clone = ws.dir(`clone-${source.name}`);
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, bob.username, source.name, { username: bob.username, secret: bob.password }), clone]);
    expect(await git.ok(['rev-parse', 'v0.1^{commit}'], { cwd: clone })).toBe(side);
    expect((await api.get(up, { basic: alice })).body).toMatchObject({ fork: false, parent: null, forks_count: 1 });

    // Once per owner; a taken name is a conflict too.
    const again = await api.post(`${up}/forks`, { basic: bob, body: { name: 'another-name' } });
    expect(again.status, again.text).toBe(409);
    const taken = await api.post(`${up}/forks`, { basic: alice, body: {} });
    expect(taken.status, taken.text).toBe(409);

    // Into an organization: its members only.
    const org = uniqueName('fork-org');
    expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
    expect((await api.post(`${up}/forks`, { basic: bob, body: { organization: org } })).status).toBe(403);
    expect((await api.post(`${up}/forks`, { basic: bob, body: { organization: `no-${org}` } })).status).toBe(422);
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: await createToken(suite, alice, ['all']) });
    const intoOrg = await octokit.repos.createFork({ owner: alice.username, repo: source.name, organization: org, name: 'org-copy' });
    expect(intoOrg.status).toBe(202);
    expect(intoOrg.data).toMatchObject({ name: 'org-copy', fork: true, owner: { login: org } });

    const listed = await octokit.repos.listForks({ owner: alice.username, repo: source.name });
    expect(listed.data.map((f) => f.full_name)).toEqual([`${bob.username}/${source.name}`, `${org}/org-copy`]);
    expect((await gitea.repos.listForks(alice.username, source.name)).data.map((f) => f.full_name)).toHaveLength(2);
    const forksOnly = await api.get(`/repos/search?q=${source.name}&mode=fork`, { basic: alice });
    expect((forksOnly.body.data as { full_name: string }[]).map((f) => f.full_name).sort()).toEqual(
      [`${bob.username}/${source.name}`].sort(),
    );

    // Deleting the parent leaves the forks standing alone.
    expect((await api.delete(up, { basic: alice })).status).toBe(204);
    expect((await api.get(mine, { basic: bob })).body).toMatchObject({ fork: false, parent: null });
  });

  it("does not show a private parent to someone who cannot see it", async () => {
    const secret = await createRepo(alice, { name: uniqueName('private-up'), private: true });
    const collab = await api.put(`/repos/${alice.username}/${secret.name}/collaborators/${bob.username}`, {
      basic: alice, body: { permission: 'read' },
    });
    expect(collab.status, collab.text).toBe(204);
    const fork = await api.post(`/repos/${alice.username}/${secret.name}/forks`, { basic: bob, body: {} });
    expect(fork.status, fork.text).toBe(202);
    expect(fork.body).toMatchObject({ private: true, parent: { id: secret.id } });
    expect((await api.delete(`/repos/${alice.username}/${secret.name}/collaborators/${bob.username}`, { basic: alice })).status).toBe(204);
    const again = await api.get(`/repos/${bob.username}/${secret.name}`, { basic: bob });
    expect(again.body).toMatchObject({ fork: true, parent: null });
  });
});
