/**
 * Every app of the suite serves its ops endpoint on a port of its own (`[ops] PORT`, given by the suite): `/livez`
 * and `/readyz` answer 200, `/metrics` is Prometheus text labelled with the app's service. Real traffic moves the
 * figures: a repository created through the API counts an RPC on both sides, a pull request's merge check counts a
 * result in the worker, a push's webhook counts a delivery in hooks-service, and git processes are counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoSubjects, type PullRequestDto } from '@cairn/contracts';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { createToken, createUser, http as httpClient, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

/** The service label of each app's metrics. */
const SERVICE_OF: Record<string, string> = {
  gateway: 'gateway',
  'identity-service': 'identity',
  'repo-service': 'repo',
  'hooks-service': 'hooks',
  'runners-service': 'runners',
  'packages-service': 'packages',
  'merge-check-worker': 'merge-check',
};

const ws = workspace('cairn-e2e-ops-');
let receiver: WebhookReceiver;
let suite: TestSuite;
let api: HttpClient;
let owner: Account;
let token: string;
let git: Git;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' } });
  api = httpClient(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('ops'));
  token = await createToken(suite, owner);
  git = gitRunner(ws.dir('home'));
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

async function metricsOf(app: string): Promise<string> {
  const res = await fetch(`${suite.opsUrls[app]}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The sum of the samples of `name` whose labels include all of `labels` (0 when there is none). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

describe('ops endpoint of every app', () => {
  it('answers /livez, /readyz and /metrics on each app’s own port', async () => {
    expect(Object.keys(suite.opsUrls).sort()).toEqual(Object.keys(SERVICE_OF).sort());
    expect(new Set(Object.values(suite.opsUrls)).size).toBe(Object.keys(SERVICE_OF).length);
    for (const [app, url] of Object.entries(suite.opsUrls)) {
      const live = await fetch(`${url}/livez`);
      expect(live.status, app).toBe(200);
      const ready = await waitFor(async () => {
        const res = await fetch(`${url}/readyz`);
        return res.status === 200 ? ((await res.json()) as { checks: Record<string, boolean> }) : null;
      }, `${app} /readyz`);
      expect(ready.checks.nats, app).toBe(true);
      const text = await metricsOf(app);
      expect(text, app).toMatch(new RegExp(`^process_cpu_user_seconds_total\\{service="${SERVICE_OF[app]}"\\} `, 'm'));
    }
  });

  it('counts real traffic: an RPC on both sides, git processes, a merge check, a webhook delivery', async () => {
    const subject = RepoSubjects.repositoryCreate;
    const before = {
      gateway: sample(await metricsOf('gateway'), 'cairn_rpc_client_duration_seconds_count', { subject, outcome: 'ok' }),
      repo: sample(await metricsOf('repo-service'), 'cairn_rpc_server_duration_seconds_count', { subject, outcome: 'ok' }),
      checks: sample(await metricsOf('merge-check-worker'), 'cairn_merge_checks_total', { result: 'mergeable' }),
      delivered: sample(await metricsOf('hooks-service'), 'cairn_webhook_delivery_attempts_total', { outcome: 'delivered' }),
      git: sample(await metricsOf('repo-service'), 'cairn_git_processes_spawned_total', {}),
    };

    const repo = uniqueName('ops');
    const created = await api.post('/user/repos', { token, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    expect(sample(await metricsOf('gateway'), 'cairn_rpc_client_duration_seconds_count', { subject, outcome: 'ok' }))
      .toBe(before.gateway + 1);
    expect(sample(await metricsOf('repo-service'), 'cairn_rpc_server_duration_seconds_count', { subject, outcome: 'ok' }))
      .toBe(before.repo + 1);

    const path = (p: string) => `/repos/${owner.username}/${repo}${p}`;
    const hook = await api.post(path('/hooks'), {
      token,
      body: { type: 'gitea', active: true, events: ['push'], config: { url: `${receiver.url}/hook`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const work = ws.dir('work');
    const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: token });
    await git.ok(['clone', '-q', url, work]);
    await git.ok(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await commitAll(git, work, { 'topic.txt': 'one\n' }, 'topic change');
    await git.ok(['push', '-q', 'origin', 'topic:topic'], { cwd: work });
    const opened = await api.post(path('/pulls'), { token, body: { head: 'topic', base: 'main', title: 'Topic' } });
    expect(opened.status, opened.text).toBe(201);
    await waitFor(async () => {
      const res = await api.get(path(`/pulls/${opened.body.number}`), { token });
      return (res.body as PullRequestDto).mergeable_state === 'mergeable';
    }, 'the pull request to be checked', 60_000);

    await waitFor(async () => sample(await metricsOf('merge-check-worker'), 'cairn_merge_checks_total', { result: 'mergeable' }) > before.checks, 'a merge check counted');
    await waitFor(async () => sample(await metricsOf('hooks-service'), 'cairn_webhook_delivery_attempts_total', { outcome: 'delivered' }) > before.delivered, 'a delivery counted', 60_000);
    const repoMetrics = await metricsOf('repo-service');
    expect(sample(repoMetrics, 'cairn_git_processes_spawned_total', {})).toBeGreaterThan(before.git);
    expect(repoMetrics).toMatch(/^cairn_outbox_oldest_unpublished_age_seconds\{schema="repo",service="repo"\} /m);
    const worker = await metricsOf('merge-check-worker');
    expect(sample(worker, 'cairn_queue_job_duration_seconds_count', { queue: 'merge-check', outcome: 'completed' })).toBeGreaterThan(0);
    expect(worker).toMatch(/^cairn_queue_jobs\{queue="merge-check",state="wait",service="merge-check"\} /m);
    expect(await metricsOf('hooks-service')).toMatch(/^cairn_jetstream_consumer_pending\{consumer="[\w-]+",service="hooks"\} /m);
  });
});
