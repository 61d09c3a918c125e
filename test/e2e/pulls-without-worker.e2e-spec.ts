/**
 * Pull requests follow their branches with no merge-check-worker running: the suite starts without the worker, a
 * real `git push` over HTTP moves a pull request's head (API), `refs/pull/N/head` (`git ls-remote`) and fires the
 * `synchronized` webhook to a real receiver; once a worker starts, the check queued meanwhile runs and mergeability
 * settles.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestDto } from '@cairn/contracts';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { createToken, createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

interface Delivery {
  event: string;
  json: { action?: string; number?: number; pull_request?: PullRequestDto };
}

const ws = workspace('cairn-e2e-pulls-noworker-');
const received: Delivery[] = [];
let receiver: http.Server;
let receiverUrl: string;
let suite: TestSuite;
let api: HttpClient;
let owner: Account;
let token: string;
let git: Git;

/** Polls until `fn` returns a truthy value (a wait, never an assertion on time: the bound only ends a hung test). */
async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ event: String(req.headers['x-gitea-event'] ?? ''), json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

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
  receiver?.close();
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

    const moved = await waitFor('the pull request head to move', async () => {
      const res = await api.get(path(`/pulls/${number}`), { token });
      expect(res.status, res.text).toBe(200);
      return (res.body as PullRequestDto).head.sha === newHead ? (res.body as PullRequestDto) : null;
    });
    expect(moved.mergeable_state).toBe('checking');
    const remote = await git.ok(['ls-remote', url, `refs/pull/${number}/head`]);
    expect(remote.split(/\s+/)[0]).toBe(newHead);
    const sync = await waitFor('the synchronized webhook', async () =>
      received.find((d) => d.event === 'pull_request' && d.json.action === 'synchronized' && d.json.number === number),
    );
    expect(sync.json.pull_request?.head.sha).toBe(newHead);

    await suite.startApp('merge-check-worker');
    const settled = await waitFor('the check to run', async () => {
      const res = await api.get(path(`/pulls?state=open&limit=50`), { token });
      const p = (res.body as PullRequestDto[]).find((x) => x.number === number);
      return p && p.mergeable_state !== 'checking' ? p : null;
    });
    expect(settled).toMatchObject({ mergeable: true, mergeable_state: 'mergeable', head: { sha: newHead } });
  });
});
