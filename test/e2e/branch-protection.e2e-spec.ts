/**
 * Branch protection end to end (issue 14 item 7): the rules' CRUD through gitea-js (a client generated from Gitea's
 * description), and their enforcement on every write path — real `git push` over smart HTTP and over SSH refused
 * with the reason in git's stderr (`remote: Cairn: …`) before any ref moves (force push, deletion, push allow-list,
 * protected files, unsigned commits; a signed one passes), the contents API (403), and pull-request merges (405 with Gitea's reason while
 * a required status check is missing or failing, then 200 once it succeeds). Branch JSON shows the protection.
 */
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { commitAll, generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, redact, sshCloneUrl, workspace, type Git, type KeyPair, type RunResult } from '../support/git.js';
import { commitSignedAs } from '../support/signing.js';
import { sshSign } from '../support/signing-tools.js';

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-protect-');
let git: Git;
let owner: Account;
let writer: Account;
let ownerKey: KeyPair;
let ownerKeyId: number;
let repo: string;
/** The owner's clone (pushes over HTTP and SSH), and the writer's. */
let ownerDir: string;
let writerDir: string;

const b64 = (t: string) => Buffer.from(t).toString('base64');
const path = (p: string) => `/repos/${owner.username}/${repo}${p}`;

async function client(who: Account) {
  const token = await createToken(suite, who);
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

function httpUrl(who: Account): string {
  return httpCloneUrl(suite.baseUrl, owner.username, repo, { username: who.username, secret: who.password });
}

function sshEnv(): Record<string, string> {
  return { GIT_SSH_COMMAND: gitSshCommand(ownerKey.privateKeyPath, suite.sshPort) };
}

async function push(transport: 'http' | 'ssh', dir: string, who: Account, refspec: string[]): Promise<RunResult> {
  const url = transport === 'http' ? httpUrl(who) : sshCloneUrl(suite.sshPort, owner.username, repo);
  return git.try(['push', url, ...refspec], { cwd: dir, env: transport === 'ssh' ? sshEnv() : {} });
}

async function mainSha(): Promise<string> {
  const res = await api.get(path('/branches/main'), { basic: owner });
  expect(res.status, res.text).toBe(200);
  return res.body.commit.id;
}

function expectRefused(r: RunResult, pattern: RegExp): void {
  expect(r.code, redact(r.stderr)).not.toBe(0);
  expect(redact(r.stderr)).toMatch(/remote: Cairn: /);
  expect(redact(r.stderr)).toMatch(pattern);
}

async function syncWith(dir: string): Promise<void> {
  await git.ok(['fetch', '-q', httpUrl(owner), 'main'], { cwd: dir });
  await git.ok(['reset', '-q', '--hard', 'FETCH_HEAD'], { cwd: dir });
}

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('powner'));
  writer = await createUser(suite, admin, uniqueName('pwriter'));
  ownerKey = await generateSshKey(ws.dir('key'), 'owner@e2e');
  const key = await api.post('/user/keys', { basic: owner, body: { title: 'laptop', key: ownerKey.publicKey } });
  expect(key.status, key.text).toBe(201);
  ownerKeyId = key.body.id;
  repo = uniqueName('guarded');
  const made = await api.post('/user/repos', { basic: owner, body: { name: repo, auto_init: true } });
  expect(made.status, made.text).toBe(201);
  const put = await api.put(path(`/collaborators/${writer.username}`), { basic: owner, body: { permission: 'write' } });
  expect(put.status, put.text).toBe(204);
  ownerDir = ws.dir('owner');
  writerDir = ws.dir('writer');
  await git.ok(['clone', '-q', httpUrl(owner), ownerDir]);
  await git.ok(['clone', '-q', httpUrl(writer), writerDir]);
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('branch protection rules (gitea-js)', () => {
  it('creates, lists, gets, edits and deletes rules; only repository admins may', async () => {
    const c = await client(owner);
    const created = await c.repos.repoCreateBranchProtection(owner.username, repo, {
      rule_name: 'release/*', enable_push: true, enable_status_check: true, status_check_contexts: ['ci/*'],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      rule_name: 'release/*', branch_name: 'release/*', enable_push: true, enable_push_whitelist: false,
      enable_status_check: true, status_check_contexts: ['ci/*'], required_approvals: 0, priority: 1,
    });
    // The deprecated branch_name names the rule when rule_name is empty.
    const legacy = await c.repos.repoCreateBranchProtection(owner.username, repo, { branch_name: 'legacy' });
    expect(legacy.data).toMatchObject({ rule_name: 'legacy', priority: 2, enable_push: false });

    const list = await c.repos.repoListBranchProtection(owner.username, repo);
    expect(list.data.map((r) => r.rule_name)).toEqual(['release/*', 'legacy']);
    const one = await c.repos.repoGetBranchProtection(owner.username, repo, 'release/*');
    expect(one.data.rule_name).toBe('release/*');

    const edited = await c.repos.repoEditBranchProtection(owner.username, repo, 'release/*', {
      enable_push_whitelist: true, push_whitelist_usernames: [writer.username], required_approvals: 2,
    });
    expect(edited.data).toMatchObject({
      enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [writer.username], required_approvals: 2,
      status_check_contexts: ['ci/*'],
    });

    // Errors, as Gitea: a duplicate is 403, an unknown user 422, a missing rule 404, no name 400.
    const dup = await api.post(path('/branch_protections'), { basic: owner, body: { rule_name: 'legacy' } });
    expect(dup.status, dup.text).toBe(403);
    const ghost = await api.post(path('/branch_protections'), { basic: owner, body: { rule_name: 'x', push_whitelist_usernames: ['no-such-user-x'] } });
    expect(ghost.status, ghost.text).toBe(422);
    expect((await api.post(path('/branch_protections'), { basic: owner, body: {} })).status).toBe(400);
    expect((await api.get(path('/branch_protections/nope'), { basic: owner })).status).toBe(404);
    // A writer is not a repository admin.
    expect((await api.get(path('/branch_protections'), { basic: writer })).status).toBe(403);
    await expect((await client(writer)).repos.repoDeleteBranchProtection(owner.username, repo, 'legacy')).rejects.toMatchObject({ status: 403 });

    // An archived repository's rules are read-only (423).
    const archive = (archived: boolean) => api.patch(path(''), { basic: owner, body: { archived } });
    expect((await archive(true)).status).toBe(200);
    expect((await api.patch(path('/branch_protections/legacy'), { basic: owner, body: { enable_push: true } })).status).toBe(423);
    expect((await api.get(path('/branch_protections/legacy'), { basic: owner })).status).toBe(200);
    expect((await archive(false)).status).toBe(200);

    expect((await c.repos.repoDeleteBranchProtection(owner.username, repo, 'release/*')).status).toBe(204);
    expect((await c.repos.repoDeleteBranchProtection(owner.username, repo, 'legacy')).status).toBe(204);
    expect((await c.repos.repoListBranchProtection(owner.username, repo)).data).toEqual([]);
  });
});

describe('enforcement on pushes, the contents API and merges', () => {
  beforeAll(async () => {
    const res = await api.post(path('/branch_protections'), {
      basic: owner,
      body: {
        rule_name: 'ma*n', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.username],
        protected_file_patterns: 'secrets/*.txt;*.key', enable_status_check: true, status_check_contexts: ['ci/build'],
      },
    });
    expect(res.status, res.text).toBe(201);
  });

  it('shows the protection in Branch JSON (glob rule), truthfully for each viewer', async () => {
    const mine = await api.get(path('/branches/main'), { basic: owner });
    expect(mine.body).toMatchObject({
      protected: true, effective_branch_protection_name: 'ma*n', enable_status_check: true,
      status_check_contexts: ['ci/build'], user_can_push: true, user_can_merge: true, required_approvals: 0,
    });
    const theirs = await api.get(path('/branches/main'), { basic: writer });
    expect(theirs.body).toMatchObject({ protected: true, user_can_push: false, user_can_merge: true });
  });

  it('refuses a push by someone outside the allow-list, over HTTP', async () => {
    const before = await mainSha();
    await commitAll(git, writerDir, { 'writer.txt': 'hi\n' }, 'writer commit');
    expectRefused(await push('http', writerDir, writer, ['HEAD:main']), /Not allowed to push to protected branch main/);
    expect(await mainSha()).toBe(before);
    // An unprotected branch takes the same commit.
    expect((await push('http', writerDir, writer, ['HEAD:refs/heads/writer-work'])).code).toBe(0);
  });

  it('accepts a fast-forward push from the allow-list over HTTP and SSH', async () => {
    const one = await commitAll(git, ownerDir, { 'a.txt': 'a\n' }, 'owner over http');
    expect((await push('http', ownerDir, owner, ['HEAD:main'])).code).toBe(0);
    expect(await mainSha()).toBe(one);
    const two = await commitAll(git, ownerDir, { 'b.txt': 'b\n' }, 'owner over ssh');
    const r = await push('ssh', ownerDir, owner, ['HEAD:main']);
    expect(r.code, redact(r.stderr)).toBe(0);
    expect(await mainSha()).toBe(two);
  });

  it('refuses a force push over HTTP and SSH', async () => {
    const before = await mainSha();
    await git.ok(['reset', '-q', '--hard', 'HEAD~1'], { cwd: ownerDir });
    await commitAll(git, ownerDir, { 'c.txt': 'rewritten\n' }, 'rewrite history');
    expectRefused(await push('http', ownerDir, owner, ['--force', 'HEAD:main']), /branch main is protected from force push/);
    expectRefused(await push('ssh', ownerDir, owner, ['--force', 'HEAD:main']), /branch main is protected from force push/);
    expect(await mainSha()).toBe(before);
    await syncWith(ownerDir);
  });

  it('refuses deleting the branch over SSH and HTTP', async () => {
    expectRefused(await push('ssh', ownerDir, owner, [':main']), /branch main is protected from deletion/);
    expectRefused(await push('http', ownerDir, owner, [':main']), /branch main is protected from deletion/);
    await mainSha();
  });

  it('refuses changes to protected files, even from the allow-list', async () => {
    const before = await mainSha();
    await commitAll(git, ownerDir, { 'secrets/prod.txt': 'hunter2\n' }, 'touch a protected file');
    expectRefused(await push('ssh', ownerDir, owner, ['HEAD:main']), /branch main is protected from changing file secrets\/prod\.txt/);
    expectRefused(await push('http', ownerDir, owner, ['HEAD:main']), /protected from changing file secrets\/prod\.txt/);
    expect(await mainSha()).toBe(before);
    await syncWith(ownerDir);
  });

  it('applies the same rules to the contents API (403)', async () => {
    const byWriter = await api.post(path('/contents/api.txt'), { basic: writer, body: { content: b64('x\n'), branch: 'main' } });
    expect(byWriter.status, byWriter.text).toBe(403);
    expect(byWriter.body.message).toMatch(/Not allowed to push to protected branch main/);
    const secret = await api.post(path('/contents/deploy.key'), { basic: owner, body: { content: b64('k\n'), branch: 'main' } });
    expect(secret.status, secret.text).toBe(403);
    expect(secret.body.message).toMatch(/protected from changing file deploy\.key/);
    const fine = await api.post(path('/contents/notes.txt'), { basic: owner, body: { content: b64('n\n'), branch: 'main' } });
    expect(fine.status, fine.text).toBe(201);
    // The writer may still write to an unprotected branch.
    const side = await api.post(path('/contents/side.txt'), { basic: writer, body: { content: b64('s\n'), branch: 'main', new_branch: 'side' } });
    expect(side.status, side.text).toBe(201);
    await syncWith(ownerDir);
  });

  it('refuses unsigned commits when the rule requires signatures', async () => {
    const edit = await api.patch(path('/branch_protections/ma*n'), { basic: owner, body: { require_signed_commits: true } });
    expect(edit.status, edit.text).toBe(200);
    const before = await mainSha();
    const unsigned = await commitAll(git, ownerDir, { 'u.txt': 'u\n' }, 'unsigned');
    expectRefused(await push('http', ownerDir, owner, ['HEAD:main']), new RegExp(`branch main is protected from unverified commit ${unsigned}`));
    expectRefused(await push('ssh', ownerDir, owner, ['HEAD:main']), /protected from unverified commit/);
    expect(await mainSha()).toBe(before);
    const api403 = await api.post(path('/contents/unsigned.txt'), { basic: owner, body: { content: b64('x\n'), branch: 'main' } });
    expect(api403.status, api403.text).toBe(403);

    // A commit signed with the owner's verified SSH key goes through.
    await syncWith(ownerDir);
    const token = await api.get('/user/ssh_key_token', { basic: owner });
    const verified = await api.post('/user/ssh_key_verify', {
      basic: owner, body: { key_id: ownerKeyId, signature: await sshSign(ownerKey.privateKeyPath, token.text) },
    });
    expect(verified.status, verified.text).toBe(200);
    const signed = await commitSignedAs(
      git, ownerDir, 'signed', { name: owner.username, email: `${owner.username}@example.com` }, { ssh: ownerKey }, ws.dir('gnupg'),
    );
    const ok = await push('ssh', ownerDir, owner, ['HEAD:main']);
    expect(ok.code, redact(ok.stderr)).toBe(0);
    expect(await mainSha()).toBe(signed);
    await api.patch(path('/branch_protections/ma*n'), { basic: owner, body: { require_signed_commits: false } });
    await syncWith(ownerDir);
  });

  it('refuses a merge with 405 while a required status check is missing', async () => {
    await commitAll(git, ownerDir, { 'feature.txt': 'f\n' }, 'feature');
    expect((await push('http', ownerDir, owner, ['HEAD:refs/heads/feature'])).code).toBe(0);
    const pr = await api.post(path('/pulls'), { basic: owner, body: { head: 'feature', base: 'main', title: 'Feature' } });
    expect(pr.status, pr.text).toBe(201);
    const refused = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge' } });
    expect(refused.status, refused.text).toBe(405);
    expect(refused.body.message).toMatch(/Not all required status checks successful/);
    // A repository admin may not force it while the rule blocks admin overrides.
    await api.patch(path('/branch_protections/ma*n'), { basic: owner, body: { block_admin_merge_override: true } });
    const blocked = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge', force_merge: true } });
    expect(blocked.status, blocked.text).toBe(405);

    // A failing, then a successful report of the required context (the latest per context counts).
    const head = pr.body.head.sha as string;
    const report = (state: string) =>
      api.post(path(`/statuses/${head}`), { basic: owner, body: { state, context: 'ci/build' } });
    expect((await report('failure')).status).toBe(201);
    const failing = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge' } });
    expect(failing.status, failing.text).toBe(405);
    expect(failing.body.message).toMatch(/Not all required status checks successful/);
    expect((await report('success')).status).toBe(201);
    const merged = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge' } });
    expect(merged.status, merged.text).toBe(200);
    await api.patch(path('/branch_protections/ma*n'), { basic: owner, body: { block_admin_merge_override: false } });
  });

  it('lets a repository admin force a merge past unmet conditions (force_merge)', async () => {
    await syncWith(ownerDir);
    await commitAll(git, ownerDir, { 'forced.txt': 'f\n' }, 'forced');
    expect((await push('http', ownerDir, owner, ['HEAD:refs/heads/forced'])).code).toBe(0);
    const pr = await api.post(path('/pulls'), { basic: owner, body: { head: 'forced', base: 'main', title: 'Forced' } });
    expect(pr.status, pr.text).toBe(201);
    expect((await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge' } })).status).toBe(405);
    const forced = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge', force_merge: true } });
    expect(forced.status, forced.text).toBe(200);
  });

  it('refuses a merge by someone outside the merge allow-list', async () => {
    await api.patch(path('/branch_protections/ma*n'), {
      basic: owner, body: { enable_status_check: false, enable_merge_whitelist: true, merge_whitelist_usernames: [owner.username] },
    });
    const pr = await api.post(path('/pulls'), { basic: writer, body: { head: 'side', base: 'main', title: 'Side' } });
    expect(pr.status, pr.text).toBe(201);
    const refused = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: writer, body: { Do: 'merge' } });
    expect(refused.status, refused.text).toBe(405);
    expect(refused.body.message).toMatch(/User not allowed to merge PR/);
    const done = await api.post(path(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge' } });
    expect(done.status, done.text).toBe(200);
  });
});

describe('merge conditions beyond status checks', () => {
  it('refuses without enough approvals, and when the head branch is behind the base (block_on_outdated_branch)', async () => {
    const r = uniqueName('conds');
    const p = (x: string) => `/repos/${owner.username}/${r}${x}`;
    expect((await api.post('/user/repos', { basic: owner, body: { name: r, auto_init: true } })).status).toBe(201);
    const url = httpCloneUrl(suite.baseUrl, owner.username, r, { username: owner.username, secret: owner.password });
    const dir = ws.dir('conds');
    await git.ok(['clone', '-q', url, dir]);
    await commitAll(git, dir, { 'topic.txt': 't\n' }, 'topic');
    expect((await git.try(['push', url, 'HEAD:refs/heads/topic'], { cwd: dir })).code).toBe(0);
    await git.ok(['reset', '-q', '--hard', 'HEAD~1'], { cwd: dir });
    await commitAll(git, dir, { 'base.txt': 'b\n' }, 'base moves on');
    expect((await git.try(['push', url, 'HEAD:main'], { cwd: dir })).code).toBe(0);
    const pr = await api.post(p('/pulls'), { basic: owner, body: { head: 'topic', base: 'main', title: 'Topic' } });
    expect(pr.status, pr.text).toBe(201);

    const rule = await api.post(p('/branch_protections'), { basic: owner, body: { rule_name: 'main', required_approvals: 1 } });
    expect(rule.status, rule.text).toBe(201);
    const merge = () => api.post(p(`/pulls/${pr.body.number}/merge`), { basic: owner, body: { Do: 'merge' } });
    const noApprovals = await merge();
    expect(noApprovals.status, noApprovals.text).toBe(405);
    expect(noApprovals.body.message).toBe('not allowed to merge [reason: Does not have enough approvals]');

    await api.patch(p('/branch_protections/main'), { basic: owner, body: { required_approvals: 0, block_on_outdated_branch: true } });
    const outdated = await merge();
    expect(outdated.status, outdated.text).toBe(405);
    expect(outdated.body.message).toMatch(/The head branch is behind the base branch/);

    await api.patch(p('/branch_protections/main'), { basic: owner, body: { block_on_outdated_branch: false } });
    expect((await merge()).status).toBe(200);
  });
});

describe('team allow-lists in an organization repository', () => {
  it('lets members of a listed team push, refuses other writers', async () => {
    const org = uniqueName('porg');
    expect((await api.post('/orgs', { basic: owner, body: { username: org } })).status).toBe(201);
    const team = await api.post(`/orgs/${org}/teams`, {
      basic: owner, body: { name: 'Releasers', permission: 'write', includes_all_repositories: true, units: ['repo.code'] },
    });
    expect(team.status, team.text).toBe(201);
    expect((await api.put(`/teams/${team.body.id}/members/${writer.username}`, { basic: owner })).status).toBe(204);
    const orgRepo = uniqueName('orgrepo');
    expect((await api.post(`/orgs/${org}/repos`, { basic: owner, body: { name: orgRepo, auto_init: true } })).status).toBe(201);
    const outsider = await createUser(suite, await suite.createAdmin(), uniqueName('outsider'));
    const collab = await api.put(`/repos/${org}/${orgRepo}/collaborators/${outsider.username}`, { basic: owner, body: { permission: 'write' } });
    expect(collab.status, collab.text).toBe(204);
    const rule = await api.post(`/repos/${org}/${orgRepo}/branch_protections`, {
      basic: owner, body: { rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_teams: ['releasers'] },
    });
    expect(rule.status, rule.text).toBe(201);
    expect(rule.body.push_whitelist_teams).toEqual(['releasers']);

    const url = (who: Account) => httpCloneUrl(suite.baseUrl, org, orgRepo, { username: who.username, secret: who.password });
    const dir = ws.dir('org-clone');
    await git.ok(['clone', '-q', url(owner), dir]);
    await commitAll(git, dir, { 'team.txt': 'team\n' }, 'by the team');
    expectRefused(await git.try(['push', url(outsider), 'HEAD:main'], { cwd: dir }), /Not allowed to push to protected branch main/);
    const ok = await git.try(['push', url(writer), 'HEAD:main'], { cwd: dir });
    expect(ok.code, redact(ok.stderr)).toBe(0);

    // Without an allow-list, write access decides: a site administrator has it everywhere.
    const edit = await api.patch(`/repos/${org}/${orgRepo}/branch_protections/main`, { basic: owner, body: { enable_push_whitelist: false } });
    expect(edit.status, edit.text).toBe(200);
    const siteAdmin = await suite.createAdmin();
    await commitAll(git, dir, { 'admin.txt': 'admin\n' }, 'by a site admin');
    const byAdmin = await git.try(['push', url(siteAdmin), 'HEAD:main'], { cwd: dir });
    expect(byAdmin.code, redact(byAdmin.stderr)).toBe(0);
  });
});
