/**
 * Pull requests from forks end to end, over the whole suite with the real merge-check-worker: user B forks A's
 * repository, pushes a branch to the fork with `git push`, opens a pull request into A's repository (gitea-js, and
 * Octokit's `pulls.create` with `head: "owner:branch"`); A sees files and commits, B pushes again and the pull request
 * follows (`refs/pull/N/head` in A's repository, the `synchronized` webhook on A's repository), A merges and the base
 * branch holds B's commits (the fork's branch is left alone, and updating it from the base is refused). Refused: a head owner without a fork, an unknown owner, a private fork the creator cannot
 * read, a duplicate, `owner/repo:branch` (not a form Gitea's API takes). Deleting the fork's branch, or the fork, closes
 * its pull requests (Gitea's `CloseBranchPulls` and `CloseRepoBranchesPulls`); reopening reads the head from the fork.
 * Responses are validated against the published OpenAPI description.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestDto } from '@cairn/contracts';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let alice: Account;
let bob: Account;
let carol: Account;
let receiver: WebhookReceiver;
let git: Git;
const ws = workspace('cairn-e2e-fork-pulls-');

async function gitea(account: Account) {
  const token = await createToken(suite, account, ['all']);
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

async function octokit(account: Account) {
  return new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: await createToken(suite, account, ['all']) });
}

/** A's new repository (one commit on `main`) and B's fork of it; B's clone of the fork. */
async function forked(name = uniqueName('upstream')): Promise<{ name: string; id: number; forkId: number; work: string }> {
  const created = await api.post('/user/repos', { basic: alice, body: { name, auto_init: true } });
  expect(created.status, created.text).toBe(201);
  const fork = await (await gitea(bob)).repos.createFork(alice.username, name, {});
  expect(fork.status).toBe(202);
  const work = ws.dir(`bob-${name}`);
  await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, bob.username, name, { username: bob.username, secret: bob.password }), work]);
  return { name, id: created.body.id, forkId: fork.data.id!, work };
}

/** Commits on a new or existing branch of B's clone and pushes it to the fork; the new commit. */
async function pushToFork(work: string, branch: string, files: Record<string, string>, message: string): Promise<string> {
  await git.ok(['checkout', '-q', '-B', branch], { cwd: work });
  const sha = await commitAll(git, work, files, message);
  await git.ok(['push', '-q', 'origin', `${branch}:${branch}`], { cwd: work });
  return sha;
}

/** The commit a ref of A's repository points at, read with `git ls-remote`. */
async function remoteRef(repo: string, ref: string): Promise<string> {
  const url = httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password });
  return (await git.ok(['ls-remote', url, ref])).split(/\s+/)[0];
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  const admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'));
  bob = await createUser(suite, admin, uniqueName('bob'));
  carol = await createUser(suite, admin, uniqueName('carol'));
  git = gitRunner(ws.dir('home'));
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('pull requests from forks', () => {
  it('B opens one from a fork; A sees it, B pushes again, A merges (gitea-js, git)', async () => {
    const { name, id, forkId, work } = await forked();
    const r = `/repos/${alice.username}/${name}`;
    const hook = await api.post(`${r}/hooks`, {
      basic: alice,
      body: { type: 'gitea', active: true, events: ['pull_request_sync'], config: { url: `${receiver.url}/${name}`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const first = await pushToFork(work, 'feature', { 'feature.txt': 'one\n' }, 'feature one');

    const bobGitea = await gitea(bob);
    const opened = await bobGitea.repos.repoCreatePullRequest(alice.username, name, { head: `${bob.username}:feature`, base: 'main', title: 'From the fork' });
    expect(opened.status).toBe(201);
    assertMatchesContract('POST', '/repos/{owner}/{repo}/pulls', 201, opened.data);
    const number = opened.data.number!;
    expect(opened.data).toMatchObject({
      state: 'open',
      user: { login: bob.username },
      head: { label: 'feature', ref: 'feature', sha: first, repo_id: forkId, repo: { id: forkId, full_name: `${bob.username}/${name}` } },
      base: { label: 'main', ref: 'main', repo_id: id, repo: { id, full_name: `${alice.username}/${name}` } },
      allow_maintainer_edit: false,
    });
    // Gitea's refs/pull/N/head: the fork's commit is in A's repository.
    expect(await remoteRef(name, `refs/pull/${number}/head`)).toBe(first);

    const aliceGitea = await gitea(alice);
    const settled = await waitFor(async () => {
      const res = await aliceGitea.repos.repoGetPullRequest(alice.username, name, number);
      // Cairn's mergeable_state is not in gitea-js's types.
      return (res.data as unknown as PullRequestDto).mergeable_state !== 'checking' ? res.data : null;
    }, 'the check of the fork pull request', 60_000);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/pulls/{index}', 200, settled);
    expect(settled).toMatchObject({ mergeable: true, changed_files: 1, additions: 1, head: { repo_id: forkId } });
    const files = await aliceGitea.repos.repoGetPullRequestFiles(alice.username, name, number);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/pulls/{index}/files', 200, files.data);
    expect(files.data).toMatchObject([{ filename: 'feature.txt', status: 'added', additions: 1 }]);
    const commits = await aliceGitea.repos.repoGetPullRequestCommits(alice.username, name, number);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/pulls/{index}/commits', 200, commits.data);
    expect(commits.data.map((c) => c.sha)).toEqual([first]);
    const byBranches = await aliceGitea.repos.repoGetPullRequestByBaseHead(alice.username, name, 'main', `${bob.username}:feature`);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/pulls/{base}/{head}', 200, byBranches.data);
    expect(byBranches.data.number).toBe(number);
    // A's own branch of the same name is another head.
    expect((await api.get(`${r}/pulls/main/feature`, { basic: alice })).status).toBe(404);
    // The web page names the head as Gitea's does: owner/repo:branch.
    const page = await fetch(`${suite.baseUrl}/${alice.username}/${name}/pulls/${number}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`wants to merge <code>${bob.username}/${name}:feature</code> into <code>main</code>`);
    const listed = await aliceGitea.repos.repoListPullRequests(alice.username, name, { state: 'open' });
    expect(listed.data.map((p) => [p.head?.label, p.head?.repo?.full_name])).toEqual([['feature', `${bob.username}/${name}`]]);
    // Gitea's `poster` filter: by the author's login; an unknown one is 400.
    const byPoster = (login: string) => api.get(`${r}/pulls?state=all&poster=${login}`, { basic: alice });
    expect((await byPoster(bob.username)).body.map((p: PullRequestDto) => p.number)).toEqual([number]);
    expect((await byPoster(alice.username)).body).toEqual([]);
    expectApiError(await byPoster(uniqueName('ghost')), 400, /Poster not found/);

    // B pushes again: the pull request follows, in A's repository, with the synchronized webhook there.
    const second = await pushToFork(work, 'feature', { 'feature.txt': 'one\ntwo\n' }, 'feature two');
    const moved = await waitFor(async () => {
      const res = await api.get(`${r}/pulls/${number}`, { basic: alice });
      return (res.body as PullRequestDto).head.sha === second ? (res.body as PullRequestDto) : null;
    }, 'the pull request head to move', 60_000);
    expect(moved.head.repo_id).toBe(forkId);
    expect(await remoteRef(name, `refs/pull/${number}/head`)).toBe(second);
    const sync = await waitFor(
      () => receiver.received.find((d) => d.path === `/${name}` && d.json?.action === 'synchronized' && d.json.number === number),
      'the synchronized webhook',
      60_000,
    );
    expect(sync.json).toMatchObject({ repository: { id }, pull_request: { head: { sha: second, repo_id: forkId } } });
    expect((await aliceGitea.repos.repoGetPullRequestCommits(alice.username, name, number)).data.map((c) => c.sha)).toEqual([second, first]);

    // Pushing to a fork is not Cairn's: updating the head from the base is refused; merging works.
    const update = await api.post(`${r}/pulls/${number}/update`, { basic: alice });
    expect(update.status, update.text).toBe(422);
    await waitFor(async () => {
      const res = await api.get(`${r}/pulls/${number}`, { basic: alice });
      return res.body.mergeable_state !== 'checking' ? res.body : null;
    }, 'the check after the push', 60_000);
    const merged = await aliceGitea.repos.repoMergePullRequest(alice.username, name, number, { Do: 'merge', delete_branch_after_merge: true });
    expect(merged.status).toBe(200);
    const main = await remoteRef(name, 'refs/heads/main');
    const clone = ws.dir(`alice-${name}`);
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, name, { username: alice.username, secret: alice.password }), clone]);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).toBe(main);
    await git.ok(['merge-base', '--is-ancestor', second, main], { cwd: clone });
    expect(await git.ok(['show', 'HEAD:feature.txt'], { cwd: clone })).toBe('one\ntwo');
    expect((await api.get(`${r}/pulls/${number}`, { basic: alice })).body).toMatchObject({ merged: true, state: 'closed' });
    // The fork's branch stays: it is B's.
    expect((await api.get(`/repos/${bob.username}/${name}/branches/feature`, { basic: bob })).status).toBe(200);
  });

  it('Octokit pulls.create with head "owner:branch"; duplicates and unknown heads refused', async () => {
    const { name, forkId, work } = await forked();
    await pushToFork(work, 'topic', { 'topic.txt': 'x\n' }, 'topic');
    const kit = await octokit(bob);
    const created = await kit.pulls.create({ owner: alice.username, repo: name, head: `${bob.username}:topic`, base: 'main', title: 'Octokit' });
    expect(created.status).toBe(201);
    assertMatchesContract('POST', '/repos/{owner}/{repo}/pulls', 201, created.data);
    expect(created.data.head).toMatchObject({ label: 'topic', ref: 'topic', repo_id: forkId, repo: { id: forkId } });
    // "Allow edits from maintainers": stored and shown; only the poster may change it (Gitea's SetAllowEdits).
    const allow = await (await gitea(bob)).repos.repoEditPullRequest(alice.username, name, created.data.number, { allow_maintainer_edit: true });
    expect(allow.status).toBe(201);
    assertMatchesContract('PATCH', '/repos/{owner}/{repo}/pulls/{index}', 201, allow.data);
    expect(allow.data.allow_maintainer_edit).toBe(true);
    const byOwner = await api.patch(`/repos/${alice.username}/${name}/pulls/${created.data.number}`, { basic: alice, body: { allow_maintainer_edit: false } });
    expect(byOwner.status, byOwner.text).toBe(403);
    const r = `/repos/${alice.username}/${name}`;
    const again = await api.post(`${r}/pulls`, { basic: bob, body: { head: `${bob.username}:topic`, base: 'main', title: 'again' } });
    expect(again.status, again.text).toBe(409);
    expect(again.body.message).toContain(`head_repo_id: ${forkId}`);
    const dupOctokit = await kit.pulls.create({ owner: alice.username, repo: name, head: `${bob.username}:topic`, base: 'main', title: 'again' }).catch((e: { status: number }) => e);
    expect(dupOctokit.status).toBe(409);

    // Carol has a repository of that name but no fork of it; nobody is called "no-such-user".
    const own = await api.post('/user/repos', { basic: carol, body: { name, auto_init: true } });
    expect(own.status, own.text).toBe(201);
    // Gitea's API takes no owner/repo:branch either (its compare pages do).
    for (const head of [`${carol.username}:main`, `no-such-user-${name}:topic`, `${bob.username}/${name}:topic`]) {
      const res = await api.post(`${r}/pulls`, { basic: carol, body: { head, base: 'main', title: 'nope' } });
      expect(res.status, `${head}: ${res.text}`).toBe(404);
    }
    const noBranch = await api.post(`${r}/pulls`, { basic: bob, body: { head: `${bob.username}:missing`, base: 'main', title: 'nope' } });
    expect(noBranch.status, noBranch.text).toBe(404);
  });

  it('a private fork: its owner may open a pull request from it, someone who cannot read it may not', async () => {
    const { name, forkId, work } = await forked();
    const priv = await api.patch(`/repos/${bob.username}/${name}`, { basic: bob, body: { private: true } });
    expect(priv.status, priv.text).toBe(200);
    await pushToFork(work, 'secret', { 'secret.txt': 's\n' }, 'secret');
    const r = `/repos/${alice.username}/${name}`;
    const refused = await api.post(`${r}/pulls`, { basic: carol, body: { head: `${bob.username}:secret`, base: 'main', title: 'not mine' } });
    expect(refused.status, refused.text).toBe(404);
    const ok = await api.post(`${r}/pulls`, { basic: bob, body: { head: `${bob.username}:secret`, base: 'main', title: 'mine' } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.head).toMatchObject({ repo_id: forkId, repo: { private: true } });
  });

  it("deleting the fork's head branch, or the fork, closes its pull requests", async () => {
    const { name, work } = await forked();
    await pushToFork(work, 'one', { 'one.txt': '1\n' }, 'one');
    await pushToFork(work, 'two', { 'two.txt': '2\n' }, 'two');
    const r = `/repos/${alice.username}/${name}`;
    const open = async (branch: string) => {
      const res = await api.post(`${r}/pulls`, { basic: bob, body: { head: `${bob.username}:${branch}`, base: 'main', title: branch } });
      expect(res.status, res.text).toBe(201);
      return res.body.number as number;
    };
    const [one, two] = [await open('one'), await open('two')];
    // A branch of A's repository with the same name is not the fork's: deleting it leaves the pull request open.
    expect((await api.post(`${r}/branches`, { basic: alice, body: { new_branch_name: 'one' } })).status).toBe(201);
    expect((await api.delete(`${r}/branches/one`, { basic: alice })).status).toBe(204);
    expect((await api.get(`${r}/pulls/${one}`, { basic: alice })).body.state).toBe('open');

    expect((await (await gitea(bob)).repos.repoDeleteBranch(bob.username, name, 'one')).status).toBe(204);
    expect((await api.get(`${r}/pulls/${one}`, { basic: alice })).body).toMatchObject({ state: 'closed', merged: false });
    expect((await api.get(`${r}/pulls/${two}`, { basic: alice })).body.state).toBe('open');
    // Reopening reads the head from the fork: gone for one, there (and moved meanwhile) for two.
    const reopenOne = await api.patch(`${r}/pulls/${one}`, { basic: bob, body: { state: 'open' } });
    expect(reopenOne.status, reopenOne.text).toBe(409);
    expect((await api.patch(`${r}/pulls/${two}`, { basic: bob, body: { state: 'closed' } })).status).toBe(201);
    const moved = await pushToFork(work, 'two', { 'two.txt': '2\n3\n' }, 'two again');
    const reopened = await api.patch(`${r}/pulls/${two}`, { basic: bob, body: { state: 'open' } });
    expect(reopened.status, reopened.text).toBe(201);
    expect(reopened.body).toMatchObject({ state: 'open', head: { sha: moved } });
    expect(await remoteRef(name, `refs/pull/${two}/head`)).toBe(moved);

    expect((await api.delete(`/repos/${bob.username}/${name}`, { basic: bob })).status).toBe(204);
    const closed = await api.get(`${r}/pulls/${two}`, { basic: alice });
    expect(closed.status, closed.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/pulls/{index}', 200, closed.body);
    // Gitea's rendering of a head whose repository is gone: the pull ref, repo_id -1.
    expect(closed.body).toMatchObject({ state: 'closed', merged: false, head: { label: 'two', ref: `refs/pull/${two}/head`, repo_id: -1, repo: null } });
  });
});
