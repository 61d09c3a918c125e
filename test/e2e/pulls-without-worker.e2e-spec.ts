/**
 * Pull requests follow their branches with no merge-check-worker running: the suite starts without the worker, a
 * real `git push` over HTTP moves a pull request's head (API), `refs/pull/N/head` (`git ls-remote`) and fires the
 * `synchronized` webhook to a real receiver; once a worker starts, the check queued meanwhile runs and mergeability
 * settles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestDto } from '@cairn/contracts';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { createToken, createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const ws = workspace('cairn-e2e-pulls-noworker-');
let receiver: WebhookReceiver;
let receiverUrl: string;
let suite: TestSuite;
let api: HttpClient;
let owner: Account;
let token: string;
let git: Git;


beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiverUrl = `${receiver.url}/hook`;

  suite = await startTestSuite({
    without: ['merge-check-worker'],
    env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback', CAIRN__WEBHOOK__RETRY_BASE_DELAY: '100ms' },
  });
  api = httpClient(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('dev'));
  token = await createToken(suite, owner);
  git = gitRunner(ws.dir('home'));
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('pull requests with merge-check-worker stopped', () => {
  it('follow a push to their head branch (head, refs/pull/N/head, synchronized webhook); the check runs once a worker starts', async () => {
    expect(suite.apps.map((a) => a.name)).not.toContain('merge-check-worker');
    const repo = uniqueName('proj');
    const created = await api.post('/user/repos', { token, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const path = (p: string) => `/repos/${owner.username}/${repo}${p}`;
    const work = ws.dir('work');
    const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: token });
    await git.ok(['clone', '-q', url, work]);
    await git.ok(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await commitAll(git, work, { 'topic.txt': 'one\n' }, 'first topic change');
    await git.ok(['push', '-q', 'origin', 'topic:topic'], { cwd: work });

    const opened = await api.post(path('/pulls'), { token, body: { head: 'topic', base: 'main', title: 'Topic' } });
    expect(opened.status, opened.text).toBe(201);
    const number: number = opened.body.number;
    const hook = await api.post(path('/hooks'), {
      token,
      body: { type: 'gitea', active: true, events: ['pull_request_sync'], config: { url: receiverUrl, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);

    const newHead = await commitAll(git, work, { 'topic.txt': 'two\n' }, 'second topic change');
    await git.ok(['push', '-q', 'origin', 'topic:topic'], { cwd: work });

    const moved = await waitFor(async () => {
      const res = await api.get(path(`/pulls/${number}`), { token });
      expect(res.status, res.text).toBe(200);
      return (res.body as PullRequestDto).head.sha === newHead ? (res.body as PullRequestDto) : null;
    }, 'the pull request head to move', 60_000);
    expect(moved.mergeable_state).toBe('checking');
    const remote = await git.ok(['ls-remote', url, `refs/pull/${number}/head`]);
    expect(remote.split(/\s+/)[0]).toBe(newHead);
    const sync = await waitFor(
      () => receiver.received.find((d) => d.event === 'pull_request' && d.json.action === 'synchronized' && d.json.number === number),
      'the synchronized webhook',
      60_000,
    );
    expect((sync.json.pull_request as PullRequestDto).head.sha).toBe(newHead);

    await suite.startApp('merge-check-worker');
    const settled = await waitFor(async () => {
      const res = await api.get(path(`/pulls?state=open&limit=50`), { token });
      const p = (res.body as PullRequestDto[]).find((x) => x.number === number);
      return p && p.mergeable_state !== 'checking' ? p : null;
    }, 'the check to run', 60_000);
    expect(settled).toMatchObject({ mergeable: true, mergeable_state: 'mergeable', head: { sha: newHead } });
  });
});
