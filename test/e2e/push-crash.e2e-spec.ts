/**
 * A push survives repo-service dying in the middle of it (issue 9, item 3). A 300-branch push over smart HTTP
 * (through the gateway) and over SSH; as soon as the first new branch is on disk, repo-service is killed with
 * SIGKILL — its receive-pack runs on by itself, as after a real crash — then started again. Afterwards every pushed
 * branch that is on disk has exactly one push event in the outbox: the ref updates were journaled before git made
 * them, and the new instance replayed the journal the dead one left behind.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoEvents } from '@cairn/contracts';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import {
  REPO_SUITE_APPS, bareRepoPath, generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, redact, sshCloneUrl,
  workspace, type Git, type KeyPair,
} from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const BRANCHES = 300;

let suite: TestSuite;
let api: HttpClient;
let db: pg.Client;
const ws = workspace('cairn-e2e-crash-');
let git: Git;
let owner: Account;
let key: KeyPair;

beforeAll(async () => {
  suite = await startTestSuite({ apps: REPO_SUITE_APPS, env: { ...FAST_PASSWORD_HASH } });
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('pusher'));
  key = await generateSshKey(ws.dir('key'), 'pusher@e2e');
  const res = await api.post('/user/keys', { basic: owner, body: { title: 'laptop', key: key.publicKey } });
  expect(res.status, res.text).toBe(201);
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  ws.cleanup();
  await suite?.stop();
});

/** A clone of `repo` with BRANCHES new branches, one new commit each (written by one `git fast-import`). */
async function cloneWithBranches(repo: string): Promise<string> {
  const dir = ws.dir(`clone-${repo}`);
  await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password }), dir]);
  const base = await git.ok(['rev-parse', 'HEAD'], { cwd: dir });
  let stream = '';
  for (let i = 1; i <= BRANCHES; i++) {
    const message = `branch ${i}\n`;
    const content = `file of branch ${i}\n`;
    stream +=
      `commit refs/heads/crash-${i}\ncommitter E2E <e2e@example.com> ${1_700_000_000 + i} +0000\n` +
      `data ${Buffer.byteLength(message)}\n${message}from ${base}\n` +
      `M 644 inline branch-${i}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  await git.ok(['fast-import', '--quiet'], { cwd: dir, input: stream });
  return dir;
}

/** The pushed branches on disk in the repository (what the server now has). */
async function branchesOnDisk(repo: string): Promise<string[]> {
  const out = await git.ok(['--git-dir', bareRepoPath(suite.dataDir, owner.username, repo), 'for-each-ref', '--format=%(refname)', 'refs/heads/crash-*']);
  return out ? out.split('\n') : [];
}

/** How many times each ref appears among the push events of a repository. */
async function eventsPerRef(repoId: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ ref: string; n: number }>(
    `SELECT u->>'ref' AS ref, count(*)::int AS n
       FROM repo.outbox_events e, jsonb_array_elements(e.payload->'data'->'updates') u
      WHERE e.subject = $1 AND (e.payload->'data'->'repository'->>'id')::int = $2
      GROUP BY 1`,
    [RepoEvents.pushReceived, repoId],
  );
  return new Map(rows.map((r) => [r.ref, r.n]));
}

/** Journals not recorded yet (left by the killed instance until a replay takes them). */
function pendingJournals(): string[] {
  try {
    return readdirSync(path.join(suite.dataDir, 'push-journal'));
  } catch {
    return [];
  }
}

/** Polls until a pushed branch is on disk (loose refs: one file per branch), tightly, to kill mid-push. */
async function firstBranchLanded(repo: string, push: Promise<unknown>): Promise<number> {
  const heads = path.join(bareRepoPath(suite.dataDir, owner.username, repo), 'refs', 'heads');
  let finished = false;
  void push.finally(() => (finished = true));
  for (;;) {
    const landed = readdirSync(heads).filter((n) => n.startsWith('crash-')).length;
    if (landed > 0) return landed;
    if (finished) throw new Error('the push ended before any branch landed');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(['http', 'ssh'] as const)('kill -9 of repo-service during a %s push', (transport) => {
  it(`every pushed branch on disk has exactly one push event after the restart (${BRANCHES} branches)`, async () => {
    const repo = uniqueName(`crash-${transport}`);
    const created = await api.post('/user/repos', { basic: owner, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const repoId = created.body.id as number;
    const dir = await cloneWithBranches(repo);

    const target = transport === 'http'
      ? { url: httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password }), env: {} }
      : { url: sshCloneUrl(suite.sshPort, owner.username, repo), env: { GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) } };
    const push = git.try(['push', '--no-progress', target.url, 'refs/heads/crash-*:refs/heads/crash-*'], { cwd: dir, env: target.env });

    const landedAtKill = await firstBranchLanded(repo, push);
    await suite.stopApp('repo-service', { signal: 'SIGKILL' });
    const result = await push;
    const onDiskAfterKill = await branchesOnDisk(repo);
    await suite.startApp('repo-service');

    // Wait until the replay has taken every journal, then until every branch on disk has an event.
    await waitFor(() => pendingJournals().length === 0, 'the push journals to be replayed', 120_000);
    const onDisk = await branchesOnDisk(repo);
    const counts = await waitFor(async () => {
      const c = await eventsPerRef(repoId);
      return onDisk.every((ref) => c.has(ref)) ? c : null;
    }, 'push events for every branch on disk', 60_000).catch(async (err: Error) => {
      const c = await eventsPerRef(repoId);
      const missing = onDisk.filter((ref) => !c.has(ref));
      throw new Error(`${err.message}: ${missing.length} of ${onDisk.length} branches on disk have no event (push: ${redact(result.stderr).slice(-500)})`);
    });

    expect(landedAtKill).toBeGreaterThan(0);
    expect(onDisk.length).toBeGreaterThanOrEqual(onDiskAfterKill.length);
    expect(onDisk.length).toBeGreaterThan(0);
    const notOnce = onDisk.filter((ref) => counts.get(ref) !== 1).map((ref) => `${ref}: ${counts.get(ref) ?? 0}`);
    expect(notOnce, 'every branch on disk has exactly one push event').toEqual([]);
    // Nothing was recorded that is not on disk.
    expect([...counts.keys()].filter((ref) => !onDisk.includes(ref))).toEqual([]);

    // The restarted instance serves pushes as before: a new push is recorded once, with no replay.
    const more = await git.try(['push', '--no-progress', target.url, `refs/heads/crash-1:refs/heads/after-${transport}`], { cwd: dir, env: target.env });
    expect(more.code, redact(more.stderr)).toBe(0);
    const after = await eventsPerRef(repoId);
    expect(after.get(`refs/heads/after-${transport}`)).toBe(1);
  });
});
