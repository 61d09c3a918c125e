/**
 * Notifications end to end (issue 14, item 11): threads made by repo-service's durable consumer of its own issue,
 * comment and pull-request events for the people taking part (author, commenters, mentioned users who can read the
 * repository), read/unread/pinned, the list filters, `X-Total-Count`, and the thread and repository routes — through
 * gitea-js and, where GitHub has the same route shape, @octokit/rest.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { expectApiError } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
let alice: Account;
let bob: Account;
let carol: Account;
let dave: Account;
let aliceToken: string;
let repo: string;

type Thread = { id: number; unread: boolean; pinned: boolean; subject: { title: string; type: string; state: string; latest_comment_url: string }; repository: { full_name: string } };

function gitea(token: string) {
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

async function openIssue(owner: Account, repoName: string, title: string, body = ''): Promise<number> {
  const res = await api.post(`/repos/${owner.username}/${repoName}/issues`, { basic: owner, body: { title, body } });
  expect(res.status, res.text).toBe(201);
  return res.body.number;
}

async function comment(who: Account, owner: Account, repoName: string, index: number, body: string): Promise<number> {
  const res = await api.post(`/repos/${owner.username}/${repoName}/issues/${index}/comments`, { basic: who, body: { body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** The user's threads (every status), once `ready` holds for them. */
async function threadsOf(who: Account, ready: (threads: Thread[]) => boolean, what: string): Promise<Thread[]> {
  return waitFor(async () => {
    const res = await api.get('/notifications?all=true', { basic: who });
    expect(res.status, res.text).toBe(200);
    return ready(res.body) ? (res.body as Thread[]) : null;
  }, what);
}

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  admin = await suite.createAdmin();
  [alice, bob, carol, dave] = await Promise.all(
    ['alice', 'bob', 'carol', 'dave'].map((stem) => createUser(suite, admin, uniqueName(stem))),
  );
  aliceToken = await createToken(suite, alice, ['write:notification', 'write:repository', 'write:issue']);
  repo = uniqueName('repo');
  expect((await api.post('/user/repos', { basic: alice, body: { name: repo, auto_init: true } })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await suite?.stop();
});

describe('threads from events', () => {
  it('a comment by bob creates an unread thread for alice (the author), none for bob; the list is gitea-js-readable', async () => {
    const index = await openIssue(alice, repo, 'first issue');
    const commentId = await comment(bob, alice, repo, index, 'looks good');
    const [thread] = await threadsOf(alice, (t) => t.length === 1, 'alice\'s thread');
    expect(thread).toMatchObject({
      unread: true, pinned: false,
      repository: { full_name: `${alice.username}/${repo}` },
      subject: {
        title: 'first issue', type: 'Issue', state: 'open',
        url: `${suite.rootUrl}api/v1/repos/${alice.username}/${repo}/issues/${index}`,
        latest_comment_url: `${suite.rootUrl}api/v1/repos/${alice.username}/${repo}/issues/comments/${commentId}`,
      },
      url: `${suite.rootUrl}api/v1/notifications/threads/${thread.id}`,
    });
    expect((await api.get('/notifications', { basic: bob })).body).toEqual([]);

    const client = gitea(aliceToken);
    const list = await client.notifications.notifyGetList();
    expect(list.data.map((t) => t.id)).toEqual([thread.id]);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await client.notifications.notifyNewAvailable()).data).toEqual({ new: 1 });
    expect((await client.notifications.notifyGetThread(String(thread.id))).data.subject?.title).toBe('first issue');

    // bob is now a participant: alice's answer notifies him.
    await comment(alice, alice, repo, index, 'thanks');
    const [bobs] = await threadsOf(bob, (t) => t.length === 1, 'bob\'s thread');
    expect(bobs.subject.title).toBe('first issue');
  });

  it('mentions notify users who can read the repository; not others, and not on a private repository they cannot see', async () => {
    const index = await openIssue(alice, repo, 'mentioning', `ping @${carol.username}`);
    await threadsOf(carol, (t) => t.some((x) => x.subject.title === 'mentioning'), 'carol\'s mention thread');
    expect((await api.get('/notifications?all=true', { basic: dave })).body).toEqual([]);

    const secret = uniqueName('secret');
    expect((await api.post('/user/repos', { basic: alice, body: { name: secret, private: true } })).status).toBe(201);
    const hidden = await openIssue(alice, secret, 'private plans', `cc @${dave.username}`);
    await comment(alice, alice, secret, hidden, `and @${carol.username}`);
    // A later event on the public issue proves the consumer went past the private ones.
    await comment(bob, alice, repo, index, `@${dave.username} see this`);
    const daves = await threadsOf(dave, (t) => t.length > 0, 'dave\'s thread');
    expect(daves.map((t) => t.subject.title)).toEqual(['mentioning']);
    const carols = (await api.get('/notifications?all=true', { basic: carol })).body as Thread[];
    expect(carols.map((t) => t.subject.title)).not.toContain('private plans');
  });

  it('pull requests are threads of type Pull; subject-type filters them', async () => {
    const branch = 'feature';
    const file = await api.post(`/repos/${alice.username}/${repo}/contents/feature.txt`, {
      basic: alice, body: { content: Buffer.from('x\n').toString('base64'), branch: 'main', new_branch: branch },
    });
    expect(file.status, file.text).toBe(201);
    const pr = await api.post(`/repos/${alice.username}/${repo}/pulls`, {
      basic: alice, body: { title: 'a pull', head: branch, base: 'main', body: `@${carol.username} review?` },
    });
    expect(pr.status, pr.text).toBe(201);
    const pulls = await threadsOf(carol, (t) => t.some((x) => x.subject.type === 'Pull'), 'carol\'s pull thread');
    expect(pulls.find((t) => t.subject.type === 'Pull')).toMatchObject({ subject: { title: 'a pull', state: 'open' } });
    const onlyPulls = await api.get('/notifications?all=true&subject-type=pull', { basic: carol });
    expect((onlyPulls.body as Thread[]).map((t) => t.subject.type)).toEqual(['Pull']);
    expect((await api.get('/notifications?all=true&subject-type=commit', { basic: carol })).body).toEqual([]);
  });
});

describe('watchers and assignees', () => {
  it("the repository's watchers (its creator by AUTO_WATCH_NEW_REPOS, and subscribers) and assignees get threads; unwatching stops it", async () => {
    const erin = await createUser(suite, admin, uniqueName('erin'));
    const base = `/repos/${alice.username}/${repo}`;
    expect((await api.put(`${base}/subscription`, { basic: erin })).status).toBe(200);
    const byBob = await api.post(`${base}/issues`, { basic: bob, body: { title: 'from bob' } });
    expect(byBob.status, byBob.text).toBe(201);
    await threadsOf(erin, (t) => t.some((x) => x.subject.title === 'from bob'), "erin's thread as a watcher");
    await threadsOf(alice, (t) => t.some((x) => x.subject.title === 'from bob'), "alice's thread as the creator, who watches");

    expect((await api.delete(`${base}/subscription`, { basic: erin })).status).toBe(204);
    const collab = await api.put(`${base}/collaborators/${erin.username}`, { basic: alice, body: { permission: 'write' } });
    expect(collab.status, collab.text).toBe(204);
    const assigned = await api.post(`${base}/issues`, { basic: bob, body: { title: 'after unwatching' } });
    expect(assigned.status, assigned.text).toBe(201);
    await threadsOf(alice, (t) => t.some((x) => x.subject.title === 'after unwatching'), "alice's later thread");
    expect(((await api.get('/notifications?all=true', { basic: erin })).body as Thread[]).map((t) => t.subject.title)).not.toContain('after unwatching');

    // Being assigned tells erin (Gitea's receiver of an assignment), and so does every later comment.
    const assign = await api.patch(`${base}/issues/${assigned.body.number}`, { basic: alice, body: { assignees: [erin.username] } });
    expect(assign.status, assign.text).toBe(201);
    const [mine] = await threadsOf(erin, (t) => t.some((x) => x.subject.title === 'after unwatching'), "erin's thread as the assignee");
    expect(mine.unread).toBe(true);
    expect((await api.patch(`/notifications/threads/${mine.id}?to-status=read`, { basic: erin })).status).toBe(205);
    await comment(bob, alice, repo, assigned.body.number, 'any news?');
    await threadsOf(erin, (t) => t.some((x) => x.subject.title === 'after unwatching' && x.unread), "erin's thread unread again");

    // A review request tells the reviewer, and only them.
    const file = await api.post(`${base}/contents/review-me.txt`, {
      basic: alice, body: { content: Buffer.from('r\n').toString('base64'), branch: 'main', new_branch: 'review-me' },
    });
    expect(file.status, file.text).toBe(201);
    const pr = await api.post(`${base}/pulls`, { basic: alice, body: { title: 'please review', head: 'review-me', base: 'main' } });
    expect(pr.status, pr.text).toBe(201);
    const asked = await api.post(`${base}/pulls/${pr.body.number}/requested_reviewers`, { basic: alice, body: { reviewers: [erin.username] } });
    expect(asked.status, asked.text).toBe(201);
    await threadsOf(erin, (t) => t.some((x) => x.subject.title === 'please review' && x.subject.type === 'Pull'), "erin's review request");
  });
});

describe('status changes and filters', () => {
  it('reads, pins and unreads one thread (gitea-js, Octokit); only its user or a site admin may', async () => {
    const [thread] = await threadsOf(alice, (t) => t.some((x) => x.subject.title === 'first issue'), 'alice\'s thread')
      .then((t) => t.filter((x) => x.subject.title === 'first issue'));
    const client = gitea(aliceToken);
    // 205 is a null-body status for fetch (the Fetch standard): clients see no body, so the state is read back.
    const state = async () => (await api.get(`/notifications/threads/${thread.id}`, { basic: alice })).body as Thread;
    expect((await client.notifications.notifyReadThread(String(thread.id))).status).toBe(205);
    expect(await state()).toMatchObject({ id: thread.id, unread: false, pinned: false });

    expect((await api.patch(`/notifications/threads/${thread.id}?to-status=pinned`, { basic: alice })).status).toBe(205);
    expect(await state()).toMatchObject({ unread: false, pinned: true });
    // A new comment keeps a pinned thread pinned.
    await comment(bob, alice, repo, 1, 'another one');
    await waitFor(async () => {
      const res = await api.get(`/notifications/threads/${thread.id}`, { basic: alice });
      return res.body.subject.latest_comment_url !== thread.subject.latest_comment_url ? res : null;
    }, 'the thread to follow the new comment');
    expect((await api.get(`/notifications/threads/${thread.id}`, { basic: alice })).body.pinned).toBe(true);
    expect((await api.get('/notifications', { basic: alice })).body.map((t: Thread) => t.id)).toContain(thread.id);
    expect((await api.get('/notifications?status-types=read', { basic: alice })).body.map((t: Thread) => t.id)).not.toContain(thread.id);

    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: aliceToken });
    const marked = await octokit.activity.markThreadAsRead({ thread_id: thread.id });
    expect(marked.status).toBe(205);
    const listed = await octokit.activity.listNotificationsForAuthenticatedUser({ all: true });
    expect(listed.data.find((t) => Number(t.id) === thread.id)).toMatchObject({ unread: false });

    expectApiError(await api.get(`/notifications/threads/${thread.id}`, { basic: bob }), 403, 'only user itself and admin are allowed to read/change this thread');
    expect((await api.get(`/notifications/threads/${thread.id}`, { basic: admin })).status).toBe(200);
    expectApiError(await api.get('/notifications/threads/999999', { basic: alice }), 404);
    expectApiError(await api.get('/notifications/threads/nope', { basic: alice }), 404);
    expect((await api.patch(`/notifications/threads/${thread.id}?to-status=unread`, { basic: alice })).status).toBe(205);
    expect(await state()).toMatchObject({ unread: true });
  });

  it('PUT /notifications and the repository routes mark threads read; since/before filter by update time', async () => {
    const before = await api.get('/notifications', { basic: alice });
    expect(before.body.length).toBeGreaterThan(0);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api.get(`/notifications?all=true&since=${future}`, { basic: alice })).body).toEqual([]);
    expect((await api.get(`/notifications?all=true&before=${future}`, { basic: alice })).body.length).toBeGreaterThan(0);
    expectApiError(await api.get('/notifications?since=yesterday', { basic: alice }), 422, 'since must be an RFC 3339 date-time');
    // A time without a zone is not RFC 3339 (Go's time.RFC3339 refuses it): not read as the server's local time.
    const zoneless = future.replace(/\.\d+Z$/, '');
    expectApiError(await api.get(`/notifications?before=${zoneless}`, { basic: alice }), 422, 'before must be an RFC 3339 date-time');

    const client = gitea(aliceToken);
    const repoList = await client.repos.notifyGetRepoList(alice.username, repo, { all: true });
    expect(repoList.data.length).toBeGreaterThan(0);
    expect(repoList.data.every((t) => t.repository?.full_name === `${alice.username}/${repo}`)).toBe(true);

    expect((await client.notifications.notifyNewAvailable()).data.new).toBeGreaterThan(0);
    expect((await client.repos.notifyReadRepoList(alice.username, repo)).status).toBe(205);
    expect((await client.notifications.notifyNewAvailable()).data).toEqual({ new: 0 });

    // Back to unread, then everything read at once.
    const back = await api.put('/notifications?status-types=read&to-status=unread', { basic: alice });
    expect(back.status).toBe(205);
    expect((await client.notifications.notifyNewAvailable()).data.new).toBeGreaterThan(0);
    const all = await client.notifications.notifyReadList();
    expect(all.status).toBe(205);
    expect((await client.notifications.notifyNewAvailable()).data).toEqual({ new: 0 });

    // Another user's repository notifications: only when the repository is visible.
    expect((await api.get(`/repos/${alice.username}/${repo}/notifications`, { basic: carol })).status).toBe(200);
    expect((await api.get(`/repos/${alice.username}/${uniqueName('missing')}/notifications`, { basic: carol })).status).toBe(404);
  });

  it('needs a signed-in user and the notification token scope', async () => {
    expect((await api.get('/notifications')).status).toBe(401);
    const repoOnly = await createToken(suite, alice, ['read:repository']);
    expect((await api.get('/notifications', { token: repoOnly })).status).toBe(403);
    const readOnly = await createToken(suite, alice, ['read:notification']);
    expect((await api.get('/notifications', { token: readOnly })).status).toBe(200);
    expect((await api.put('/notifications', { token: readOnly })).status).toBe(403);
  });
});
