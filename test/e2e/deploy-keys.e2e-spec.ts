/**
 * Deploy keys end to end (issue 14, item 8): the API (`/repos/{owner}/{repo}/keys`, through gitea-js and Octokit as
 * well as raw HTTP), Gitea's rules (repository admins only; a key is a user's or a deploy key, never both; one title
 * and one key per repository) and the real `git` and `ssh` commands: a deploy key clones its own repository only, a
 * read-only key cannot push (and says so), a read-write key can, its use is recorded, and a deleted key is refused;
 * branch-protection allow-lists admit a deploy key only through their `…_deploy_keys` flags.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { commitAll, generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, redact, sshCloneUrl, workspace, type Git, type KeyPair, type RunResult } from '../support/git.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let db: pg.Client;
const ws = workspace('cairn-e2e-deploy-');
let git: Git;
let owner: Account;
let ownerToken: string;
let writer: Account;
let stranger: Account;
/** Two private repositories of `owner`: keys are added to `target`, `other` must stay out of their reach. */
let target: string;
let other: string;

const sshEnv = (key: KeyPair) => ({ GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) });

function expectRefused(r: RunResult, pattern: RegExp, what: string): void {
  expect(r.code, `${what} should fail:\n${redact(r.stderr)}`).not.toBe(0);
  expect(redact(r.stderr), what).toMatch(pattern);
}

async function addKey(repo: string, title: string, key: KeyPair, readOnly: boolean): Promise<number> {
  const res = await api.post(`/repos/${owner.username}/${repo}/keys`, {
    basic: owner,
    body: { title, key: key.publicKey, read_only: readOnly },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  const admin = await suite.createAdmin();
  [owner, writer, stranger] = await Promise.all(['owner', 'writer', 'stranger'].map((s) => createUser(suite, admin, uniqueName(s))));
  ownerToken = await createToken(suite, owner, ['write:repository', 'write:user']);
  target = uniqueName('target');
  other = uniqueName('other');
  for (const name of [target, other]) {
    const res = await api.post('/user/repos', { basic: owner, body: { name, private: true, auto_init: true } });
    expect(res.status, res.text).toBe(201);
  }
  const put = await api.put(`/repos/${owner.username}/${target}/collaborators/${writer.username}`, {
    basic: owner,
    body: { permission: 'write' },
  });
  expect(put.status, put.text).toBe(204);
});

afterAll(async () => {
  await db?.end();
  await suite?.stop();
  ws.cleanup();
});

describe('the deploy keys API', () => {
  it("creates, lists, gets and deletes keys in Gitea's DeployKey shape (gitea-js)", async () => {
    const key = await generateSshKey(ws.dir('api-key'), 'ci@deploy');
    const client = giteaApi(suite.baseUrl, { token: ownerToken, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const created = await client.repos.repoCreateKey(owner.username, target, { title: 'ci', key: key.publicKey, read_only: true });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      id: expect.any(Number),
      title: 'ci',
      key: key.publicKey.split(' ').slice(0, 2).join(' '),
      fingerprint: expect.stringMatching(/^SHA256:/),
      url: `${suite.rootUrl}api/v1/repos/${owner.username}/${target}/keys/${created.data.id}`,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(created.data.key_id).toBe(created.data.id);

    // The owner sees read_only and the repository, as in Gitea.
    const one = await client.repos.repoGetKey(owner.username, target, created.data.id!);
    expect(one.data).toMatchObject({ read_only: true, repository: { name: target, full_name: `${owner.username}/${target}` } });
    const list = await client.repos.repoListKeys(owner.username, target, { fingerprint: created.data.fingerprint });
    expect(list.data.map((k) => k.id)).toEqual([created.data.id]);
    expect((await client.repos.repoListKeys(owner.username, target, { key_id: created.data.id! + 100000 })).data).toEqual([]);

    expect((await client.repos.repoDeleteKey(owner.username, target, created.data.id!)).status).toBe(204);
    await expect(client.repos.repoGetKey(owner.username, target, created.data.id!)).rejects.toMatchObject({ status: 404 });
    // Deleting what is not there answers 204, as Gitea.
    expect((await api.delete(`/repos/${owner.username}/${target}/keys/${created.data.id}`, { basic: owner })).status).toBe(204);
  });

  it("Octokit's repos.createDeployKey / listDeployKeys / getDeployKey / deleteDeployKey work against the same routes", async () => {
    const key = await generateSshKey(ws.dir('octo-key'), 'octo@deploy');
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: ownerToken });
    const created = await octokit.rest.repos.createDeployKey({ owner: owner.username, repo: target, title: 'octo', key: key.publicKey, read_only: false });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ title: 'octo', key: key.publicKey.split(' ').slice(0, 2).join(' ') });
    const listed = await octokit.rest.repos.listDeployKeys({ owner: owner.username, repo: target, per_page: 50 });
    expect(listed.data.map((k) => k.id)).toContain(created.data.id);
    const one = await octokit.rest.repos.getDeployKey({ owner: owner.username, repo: target, key_id: created.data.id });
    expect(one.data).toMatchObject({ id: created.data.id, read_only: false });
    expect((await octokit.rest.repos.deleteDeployKey({ owner: owner.username, repo: target, key_id: created.data.id })).status).toBe(204);
  });

  it("refuses what Gitea refuses: non-admins, a user's key, the same key or title twice, bad keys", async () => {
    const key = await generateSshKey(ws.dir('rules-key'), 'rules@deploy');
    const path = `/repos/${owner.username}/${target}/keys`;
    // A write collaborator is not a repository admin; a stranger does not see the private repository at all.
    expectApiError(await api.post(path, { basic: writer, body: { title: 'w', key: key.publicKey } }), 403);
    expectApiError(await api.get(path, { basic: writer }), 403);
    expectApiError(await api.post(path, { basic: stranger, body: { title: 's', key: key.publicKey } }), 404);
    expect((await api.get(path)).status).toBe(401);

    expectApiError(await api.post(path, { basic: owner, body: { title: 'bad', key: 'ssh-ed25519 not-a-key' } }), 422);
    expectApiError(await api.post(path, { basic: owner, body: { title: '', key: key.publicKey } }), 422);

    const id = await addKey(target, 'rules', key, true);
    expectApiError(await api.post(path, { basic: owner, body: { title: 'again', key: key.publicKey } }), 422,
      'This key has already been added to this repository');
    const second = await generateSshKey(ws.dir('rules-key-2'), 'rules2@deploy');
    expectApiError(await api.post(path, { basic: owner, body: { title: 'rules', key: second.publicKey } }), 422,
      'A key with the same name already exists');

    // A deploy key cannot become a user's key, and a user's key cannot become a deploy key.
    expectApiError(await api.post('/user/keys', { basic: writer, body: { title: 'mine', key: key.publicKey } }), 422);
    const personal = await generateSshKey(ws.dir('personal-key'), 'me@laptop');
    expect((await api.post('/user/keys', { basic: writer, body: { title: 'mine', key: personal.publicKey } })).status).toBe(201);
    expectApiError(await api.post(path, { basic: owner, body: { title: 'personal', key: personal.publicKey } }), 422,
      'Key content has been used as non-deploy key');

    // Another repository may use the same deploy key.
    const reused = await api.post(`/repos/${owner.username}/${other}/keys`, { basic: owner, body: { title: 'rules', key: key.publicKey } });
    expect(reused.status, reused.text).toBe(201);
    expect((await api.delete(`/repos/${owner.username}/${other}/keys/${reused.body.id}`, { basic: owner })).status).toBe(204);
    expect((await api.delete(`${path}/${id}`, { basic: owner })).status).toBe(204);
    // The key of another repository is not found through this one.
    expectApiError(await api.get(`/repos/${owner.username}/${other}/keys/${id}`, { basic: owner }), 404);
  });
});

describe('deploy keys over SSH', () => {
  let readOnly: KeyPair;
  let readWrite: KeyPair;
  let readOnlyId: number;

  beforeAll(async () => {
    readOnly = await generateSshKey(ws.dir('ro'), 'ro@deploy');
    readWrite = await generateSshKey(ws.dir('rw'), 'rw@deploy');
    readOnlyId = await addKey(target, 'read-only', readOnly, true);
    await addKey(target, 'read-write', readWrite, false);
  });

  it('a read-only key clones its repository, and no other; its push is refused with a message', async () => {
    const dir = ws.dir('ro-clone');
    await git.ok(['clone', '-q', sshCloneUrl(suite.sshPort, owner.username, target), dir], { env: sshEnv(readOnly) });
    const lastUsed = await db.query('SELECT last_used_at FROM repo.deploy_keys WHERE id = $1', [readOnlyId]);
    expect(lastUsed.rows[0].last_used_at).not.toBeNull();

    const elsewhere = await git.try(['clone', '-q', sshCloneUrl(suite.sshPort, owner.username, other), ws.dir('ro-other')], {
      env: sshEnv(readOnly),
    });
    expectRefused(elsewhere, /does not exist or you do not have access to it/, 'cloning another repository');

    await commitAll(git, dir, { 'ro.txt': 'read-only\n' }, 'pushed with a read-only key');
    const push = await git.try(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir, env: sshEnv(readOnly) });
    expectRefused(push, /deploy key is read-only/, 'pushing with a read-only key');
  });

  it('a read-write key pushes, recorded as the repository owner', async () => {
    const dir = ws.dir('rw-clone');
    await git.ok(['clone', '-q', sshCloneUrl(suite.sshPort, owner.username, target), dir], { env: sshEnv(readWrite) });
    const head = await commitAll(git, dir, { 'rw.txt': 'read-write\n' }, 'pushed with a read-write key');
    await git.ok(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir, env: sshEnv(readWrite) });
    const branch = await api.get(`/repos/${owner.username}/${target}/branches/main`, { basic: owner });
    expect(branch.body.commit.id).toBe(head);
    // Pushing to a repository the key was not added to stays refused.
    const push = await git.try(['push', '-q', sshCloneUrl(suite.sshPort, owner.username, other), 'HEAD:refs/heads/stray'], {
      cwd: dir,
      env: sshEnv(readWrite),
    });
    expectRefused(push, /does not exist or you do not have access to it/, 'pushing to another repository');
  });

  it('passes a push allow-list only with push_whitelist_deploy_keys, a force-push one only with force_push_allowlist_deploy_keys', async () => {
    const rule = `/repos/${owner.username}/${target}/branch_protections`;
    // The owner the key pushes for is on both lists: that must not let the key through (Gitea asks the flags only).
    const created = await api.post(rule, {
      basic: owner,
      body: { rule_name: 'guarded', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.username] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ enable_push_whitelist: true, push_whitelist_deploy_keys: false });
    const edit = async (body: Record<string, unknown>) => {
      const res = await api.patch(`${rule}/guarded`, { basic: owner, body });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const headOf = async () => (await api.get(`/repos/${owner.username}/${target}/branches/guarded`, { basic: owner })).body.commit?.id;

    const dir = ws.dir('allow-list-clone');
    await git.ok(['clone', '-q', sshCloneUrl(suite.sshPort, owner.username, target), dir], { env: sshEnv(readWrite) });
    const first = await commitAll(git, dir, { 'guarded.txt': 'one\n' }, 'first guarded commit');
    const push = (ref: string) => git.try(['push', '-q', 'origin', ref], { cwd: dir, env: sshEnv(readWrite) });
    expectRefused(await push('HEAD:guarded'), /Not allowed to push to protected branch guarded/, 'a key the push allow-list leaves out');
    expect((await api.get(`/repos/${owner.username}/${target}/branches/guarded`, { basic: owner })).status).toBe(404);

    expect(await edit({ push_whitelist_deploy_keys: true })).toMatchObject({ push_whitelist_deploy_keys: true });
    expect((await push('HEAD:guarded')).code).toBe(0);
    expect(await headOf()).toBe(first);

    await edit({
      enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: [owner.username],
    });
    await git.ok(['commit', '-q', '--amend', '-m', 'rewritten guarded commit'], { cwd: dir });
    const rewritten = await git.ok(['rev-parse', 'HEAD'], { cwd: dir });
    expectRefused(await push('+HEAD:guarded'), /branch guarded is protected from force push/, 'a key the force-push allow-list leaves out');
    expect(await headOf()).toBe(first);

    expect(await edit({ force_push_allowlist_deploy_keys: true })).toMatchObject({ force_push_allowlist_deploy_keys: true });
    expect((await push('+HEAD:guarded')).code).toBe(0);
    expect(await headOf()).toBe(rewritten);
    expect((await api.delete(`${rule}/guarded`, { basic: owner })).status).toBe(204);
  });

  it('a deleted key no longer authenticates; a deploy key is no HTTP credential', async () => {
    const gone = await generateSshKey(ws.dir('gone'), 'gone@deploy');
    const id = await addKey(target, 'gone', gone, true);
    expect((await git.try(['ls-remote', sshCloneUrl(suite.sshPort, owner.username, target)], { env: sshEnv(gone) })).code).toBe(0);
    expect((await api.delete(`/repos/${owner.username}/${target}/keys/${id}`, { basic: owner })).status).toBe(204);
    const after = await git.try(['ls-remote', sshCloneUrl(suite.sshPort, owner.username, target)], { env: sshEnv(gone) });
    expectRefused(after, /Permission denied|publickey/i, 'a deleted deploy key');
    // Over HTTP there is nothing a deploy key could present: the private repository stays hidden from anonymous clones.
    const anonymous = await git.try(['ls-remote', httpCloneUrl(suite.baseUrl, owner.username, target)], {
      env: { GIT_TERMINAL_PROMPT: '0' },
    });
    expect(anonymous.code).not.toBe(0);
  });
});
