/**
 * Teams of an organization in a repository's work, end to end: team review requests (`team_reviewers` of
 * `POST|DELETE …/pulls/{index}/requested_reviewers`, through gitea-js; `requested_reviewers_teams`, the review list's
 * `team`, the `review_requested` webhooks a real receiver gets for each member) and team members as assignees
 * (`GET …/assignees`, assigning them on issues and pull requests), and per-unit team access (`units_map`: a team writing
 * issues but reading code manages labels yet cannot push over git HTTP; one writing code pushes yet cannot create labels).
 */
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, redact, sshCloneUrl, workspace } from '../support/git.js';
import { waitFor } from '../support/pulls-world.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let receiver: WebhookReceiver;
let owner: Account;
/** Members of the `Reviewers` team (read, given the repository). */
let alice: Account;
let bob: Account;
/** Member of the `Elsewhere` team (read, not given the repository). */
let carol: Account;
/** Member of the `Writers` team (write on code, issues and pull requests, given the repository). */
let dave: Account;
/** Member of the `CodeReaders` team (read on code only, given the repository). */
let erin: Account;
/** Member of the `Triage` team (`units_map`: code read, issues write). */
let frank: Account;
/** Member of the `Coders` team (`units_map`: code write, issues read). */
let gina: Account;
const ws = workspace('cairn-e2e-team-access-');
let ownerToken: string;
let aliceToken: string;
let org: string;
let repo: string;
const teamIds: Record<string, number> = {};

type Client = ReturnType<typeof giteaApi>;
const gitea = (token: string): Client =>
  giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
const path = (p: string) => `/repos/${org}/${repo}${p}`;
/** gitea-js sends the review-request bodies without a JSON Content-Type (its description omits `consumes`). */
const JSON_BODY = { headers: { 'content-type': 'application/json' } };

async function createTeam(name: string, body: Record<string, unknown>, members: Account[], grant: boolean): Promise<number> {
  const created = await api.post(`/orgs/${org}/teams`, { token: ownerToken, body: { name, ...body } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as number;
  for (const m of members) expect((await api.put(`/teams/${id}/members/${m.username}`, { token: ownerToken })).status).toBe(204);
  if (grant) expect((await api.put(`/teams/${id}/repos/${org}/${repo}`, { token: ownerToken })).status).toBe(204);
  return id;
}

/** A pull request by the owner from a new branch with one changed file (made through the contents API). */
async function openPull(branch: string): Promise<number> {
  const file = await api.post(path(`/contents/${branch}.txt`), {
    token: ownerToken,
    body: { content: Buffer.from(`${branch}\n`).toString('base64'), message: `add ${branch}`, branch: 'main', new_branch: branch },
  });
  expect(file.status, file.text).toBe(201);
  const pull = await api.post(path('/pulls'), { token: ownerToken, body: { head: branch, base: 'main', title: branch } });
  expect(pull.status, pull.text).toBe(201);
  return pull.body.number as number;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  const admin = await suite.createAdmin();
  [owner, alice, bob, carol, dave, erin, frank, gina] = await Promise.all(
    ['owner', 'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina'].map((s) => createUser(suite, admin, uniqueName(s))),
  );
  [ownerToken, aliceToken] = await Promise.all([createToken(suite, owner), createToken(suite, alice)]);
  org = uniqueName('org');
  expect((await api.post('/orgs', { token: ownerToken, body: { username: org } })).status).toBe(201);
  repo = uniqueName('repo');
  const created = await api.post(`/orgs/${org}/repos`, { token: ownerToken, body: { name: repo, private: true, auto_init: true } });
  expect(created.status, created.text).toBe(201);
  // The owner is in the reviewing team too: the poster of a pull request is never told of its own review request.
  teamIds.Reviewers = await createTeam('Reviewers', { permission: 'read', units: ['repo.code', 'repo.pulls'] }, [alice, bob, owner], true);
  teamIds.Elsewhere = await createTeam('Elsewhere', { permission: 'read', units: ['repo.code', 'repo.pulls'] }, [carol], false);
  teamIds.Writers = await createTeam('Writers', { permission: 'write', units: ['repo.code', 'repo.issues', 'repo.pulls'] }, [dave], true);
  teamIds.CodeReaders = await createTeam('CodeReaders', { permission: 'read', units: ['repo.code'] }, [erin], true);
  teamIds.Triage = await createTeam('Triage', { units_map: { 'repo.code': 'read', 'repo.issues': 'write' } }, [frank], true);
  teamIds.Coders = await createTeam('Coders', { units_map: { 'repo.code': 'write', 'repo.issues': 'read' } }, [gina], true);
  const hook = await api.post(path('/hooks'), {
    token: ownerToken,
    body: { type: 'gitea', active: true, events: ['pull_request_review_request'], config: { url: `${receiver.url}/teams`, content_type: 'json' } },
  });
  expect(hook.status, hook.text).toBe(201);
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('team review requests', () => {
  it('requests a team by name (gitea-js); the pull request, the review list and webhooks show it; it is withdrawn', async () => {
    const index = await openPull('team-review');
    const client = gitea(ownerToken);
    const added = await client.repos.repoCreatePullReviewRequests(org, repo, index, { reviewers: [], team_reviewers: ['reviewers'] }, JSON_BODY);
    expect(added.status).toBe(201);
    expect(added.data).toHaveLength(1);
    expect(added.data[0]).toMatchObject({
      state: 'REQUEST_REVIEW',
      user: null,
      team: { id: teamIds.Reviewers, name: 'Reviewers', permission: 'read', units: ['repo.code', 'repo.pulls'] },
    });
    // Asking again adds nothing.
    expect((await client.repos.repoCreatePullReviewRequests(org, repo, index, { team_reviewers: ['Reviewers'] }, JSON_BODY)).data).toEqual([]);

    const pull = await client.repos.repoGetPullRequest(org, repo, index);
    expect(pull.data.requested_reviewers).toBeNull();
    expect(pull.data.requested_reviewers_teams).toMatchObject([{ id: teamIds.Reviewers, name: 'Reviewers', organization: { username: org } }]);
    const reviews = await client.repos.repoListPullReviews(org, repo, index);
    expect(reviews.data).toMatchObject([{ id: added.data[0].id, state: 'REQUEST_REVIEW', team: { name: 'Reviewers' } }]);
    const one = await client.repos.repoGetPullReview(org, repo, index, added.data[0].id!);
    expect(one.data.team).toMatchObject({ id: teamIds.Reviewers });

    // One `review_requested` per member, the poster (the owner) left out.
    const requested = () => receiver.received.filter((d) => d.path === '/teams' && d.json?.pull_request?.number === index);
    await waitFor('a webhook per team member', async () => requested().length >= 2);
    expect(requested().map((d) => [d.json.action, d.json.requested_reviewer?.login]).sort()).toEqual(
      [['review_requested', alice.username], ['review_requested', bob.username]].sort(),
    );
    expect(requested()[0].json.pull_request.requested_reviewers_teams).toMatchObject([{ name: 'Reviewers' }]);

    const removed = await client.repos.repoDeletePullReviewRequests(org, repo, index, { team_reviewers: ['Reviewers'] }, JSON_BODY);
    expect(removed.status).toBe(204);
    expect((await client.repos.repoGetPullRequest(org, repo, index)).data.requested_reviewers_teams).toBeNull();
    expect((await client.repos.repoListPullReviews(org, repo, index)).data).toEqual([]);
  });

  it("refuses what Gitea refuses: unknown teams, teams that cannot read a private repository, readers choosing", async () => {
    const index = await openPull('team-refusals');
    const requests = path(`/pulls/${index}/requested_reviewers`);
    expectApiError(await api.post(requests, { token: ownerToken, body: { team_reviewers: ['no-such-team'] } }), 404, "Team 'no-such-team' not exist");
    expectApiError(await api.post(requests, { token: ownerToken, body: { team_reviewers: ['Elsewhere'] } }), 422, /cannot read the repository/);
    // Alice reads only (her team's permission): she may not choose reviewers.
    expectApiError(await api.post(requests, { token: aliceToken, body: { team_reviewers: ['Reviewers'] } }), 422);
    expectApiError(await api.delete(requests, { token: aliceToken, body: { team_reviewers: ['Reviewers'] } }), 422);
    expect((await api.get(path(`/pulls/${index}`), { token: ownerToken })).body.requested_reviewers_teams).toBeNull();

    const closed = await api.patch(path(`/pulls/${index}`), { token: ownerToken, body: { state: 'closed' } });
    expect(closed.status, closed.text).toBe(201);
    expectApiError(await api.post(requests, { token: ownerToken, body: { team_reviewers: ['Reviewers'] } }), 403);
  });
});

describe('team members as assignees', () => {
  it('lists members of teams reaching the repository with write on a unit or read on pull requests (gitea-js)', async () => {
    const assignable = await gitea(ownerToken).repos.repoGetAssignees(org, repo);
    expect(assignable.status).toBe(200);
    // Sorted by login; carol's team does not reach the repository, erin's reads code only; frank's and gina's
    // teams write one unit each.
    const expected = [owner, alice, bob, dave, frank, gina].map((u) => u.username).sort((a, b) => a.localeCompare(b));
    expect(assignable.data.map((u) => u.login)).toEqual(expected);
  });

  it('assigns team members on issues and pull requests; refuses users the list leaves out', async () => {
    const issue = await gitea(ownerToken).repos.issueCreateIssue(org, repo, { title: 'for the team', assignees: [dave.username, alice.username] });
    expect(issue.status).toBe(201);
    expect(issue.data.assignees?.map((u) => u.login).sort()).toEqual([dave.username, alice.username].sort());
    for (const who of [erin, carol]) {
      expectApiError(await api.post(path('/issues'), { token: ownerToken, body: { title: 'x', assignees: [who.username] } }), 422, /cannot be assigned/);
    }
    const index = await openPull('team-assign');
    const pull = await gitea(ownerToken).repos.repoEditPullRequest(org, repo, index, { assignees: [dave.username] });
    expect(pull.data.assignees?.map((u) => u.login)).toEqual([dave.username]);
  });
});

describe('per-unit team access (units_map)', () => {
  it('a team writing issues but reading code manages labels and issues, yet cannot push or write contents', async () => {
    const token = await createToken(suite, frank);
    const team = await api.get(`/teams/${teamIds.Triage}`, { token: ownerToken });
    expect(team.body).toMatchObject({ permission: 'read', units_map: { 'repo.code': 'read', 'repo.issues': 'write' } });

    const label = await gitea(token).repos.issueCreateLabel(org, repo, { name: 'triaged', color: '#00aabb' });
    expect(label.status).toBe(201);
    const issue = await gitea(ownerToken).repos.issueCreateIssue(org, repo, { title: 'to triage' });
    const labelled = await gitea(token).repos.issueAddLabel(org, repo, issue.data.number!, { labels: [label.data.id!] });
    expect(labelled.data.map((l) => l.name)).toEqual(['triaged']);
    const comment = await gitea(token).repos.issueCreateComment(org, repo, issue.data.number!, { body: 'looking' });
    expect(comment.status).toBe(201);
    const closed = await api.patch(path(`/issues/${issue.data.number}`), { token, body: { state: 'closed' } });
    expect(closed.status, closed.text).toBe(201);

    // Code: read only. Contents writes and pushes are refused; reading the code works.
    expect((await api.get(path('/contents/README.md'), { token })).status).toBe(200);
    expectApiError(await api.post(path('/contents/triage.txt'), {
      token, body: { content: Buffer.from('x').toString('base64'), message: 'x', branch: 'main' },
    }), 403);
    const git = gitRunner(ws.dir('frank-home'));
    const dir = ws.dir('frank-clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, org, repo, { username: frank.username, secret: token }), dir]);
    await commitAll(git, dir, { 'pushed.txt': 'by triage\n' }, 'a triage push');
    const push = await git.try(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
    expect(push.code, redact(push.stderr)).not.toBe(0);
    expect(redact(push.stderr)).toMatch(/permission denied|403/i);
    // Over SSH alike: fetching works, pushing is refused.
    const key = await generateSshKey(ws.dir('frank-key'), 'frank@laptop');
    expect((await api.post('/user/keys', { token, body: { title: 'laptop', key: key.publicKey } })).status).toBe(201);
    const sshEnv = { GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) };
    const ssh = sshCloneUrl(suite.sshPort, org, repo);
    expect((await git.try(['ls-remote', ssh], { env: sshEnv })).code).toBe(0);
    const sshPush = await git.try(['push', '-q', ssh, 'HEAD:main'], { cwd: dir, env: sshEnv });
    expect(sshPush.code, redact(sshPush.stderr)).not.toBe(0);
    expect(redact(sshPush.stderr)).toMatch(/is not allowed to push/);
    // Pull requests are a unit the team lacks: a private repository's pull requests stay closed to it, and its
    // members cannot be asked to review.
    expect((await api.get(path('/pulls'), { token })).status).toBe(403);
    const index = await openPull('triage-review');
    expectApiError(await api.post(path(`/pulls/${index}/requested_reviewers`), { token: ownerToken, body: { reviewers: [frank.username] } }),
      422, /cannot read the repository/);
    // Nor through the issue tracker's shared routes (Gitea's CanReadIssuesOrPulls): the pull request is not there.
    expectApiError(await api.get(path(`/issues/${index}`), { token }), 404);
    expectApiError(await api.post(path(`/issues/${index}/comments`), { token, body: { body: 'sneaking in' } }), 404);
    expectApiError(await api.patch(path(`/issues/${index}`), { token, body: { state: 'closed' } }), 404);
    expectApiError(await api.get(path(`/issues/${index}/labels`), { token }), 404);
    const listed = await api.get(path('/issues?state=all&limit=50'), { token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.every((i: { pull_request: unknown }) => !i.pull_request)).toBe(true);
    expect(listed.body.map((i: { number: number }) => i.number)).toContain(issue.data.number);
    expect((await api.get(path('/issues?type=pulls&state=all'), { token })).body).toEqual([]);
    expect((await api.get(path(`/pulls/${index}`), { token: ownerToken })).body.state).toBe('open');

    // Releases are a unit the team lacks too: their attachments (API and download links) stay closed to it.
    const release = await gitea(ownerToken).repos.repoCreateRelease(org, repo, { tag_name: 'triage-v1', target_commitish: 'main' });
    const asset = await gitea(ownerToken).repos.repoCreateReleaseAttachment(
      org, repo, release.data.id!, { attachment: new File([new Uint8Array([1, 2, 3])], 'tool.bin') },
    );
    expect(asset.status).toBe(201);
    expectApiError(await api.get(path(`/releases/${release.data.id}/assets`), { token }), 403);
    expectApiError(await api.get(path(`/releases/${release.data.id}/assets/${asset.data.id}`), { token }), 403);
    expect((await fetch(asset.data.browser_download_url!, { headers: { authorization: `token ${token}` } })).status).toBe(404);
    expect((await fetch(asset.data.browser_download_url!, { headers: { authorization: `token ${ownerToken}` } })).status).toBe(200);

    // Watching the repository, the team hears of new issues, never of pull requests it may not read.
    expect((await api.put(path('/subscription'), { token })).status).toBe(200);
    await openPull('triage-watched');
    const watched = await api.post(path('/issues'), { token: ownerToken, body: { title: 'triage-watched issue' } });
    expect(watched.status, watched.text).toBe(201);
    const threads = await waitFor("frank's thread of the new issue", async () => {
      const res = await api.get('/notifications?all=true', { token });
      const list = res.body as { subject: { title: string; type: string } }[];
      return list.some((t) => t.subject.title === 'triage-watched issue') ? list : null;
    });
    expect(threads.filter((t) => t.subject.type === 'Pull')).toEqual([]);
  });

  it('a team writing code but reading issues pushes and writes contents, yet cannot create labels', async () => {
    const token = await createToken(suite, gina);
    const written = await api.post(path('/contents/coders.txt'), {
      token, body: { content: Buffer.from('by coders\n').toString('base64'), message: 'coders', branch: 'main' },
    });
    expect(written.status, written.text).toBe(201);
    const git = gitRunner(ws.dir('gina-home'));
    const dir = ws.dir('gina-clone');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, org, repo, { username: gina.username, secret: token }), dir]);
    const head = await commitAll(git, dir, { 'pushed.txt': 'by coders\n' }, 'a coders push');
    // The team's overall permission is read (the lowest of its units): only the code unit lets it push, over HTTP …
    await git.ok(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir });
    expect((await api.get(path('/branches/main'), { token })).body.commit.id).toBe(head);
    // … and over SSH.
    const key = await generateSshKey(ws.dir('gina-key'), 'gina@laptop');
    expect((await api.post('/user/keys', { token, body: { title: 'laptop', key: key.publicKey } })).status).toBe(201);
    const next = await commitAll(git, dir, { 'pushed.txt': 'again over ssh\n' }, 'a coders push over ssh');
    await git.ok(['push', '-q', sshCloneUrl(suite.sshPort, org, repo), 'HEAD:main'], {
      cwd: dir, env: { GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) },
    });
    expect((await api.get(path('/branches/main'), { token })).body.commit.id).toBe(next);
    expectApiError(await api.post(path('/labels'), { token, body: { name: 'nope', color: '#000000' } }), 403);
    expect((await api.get(path('/issues?state=all'), { token })).status).toBe(200);
  });
});
