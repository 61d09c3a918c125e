/**
 * One end-to-end world for pull-request tests (API, web pages, browser): a suite, a user with a token, a repository
 * and a work clone pushed to over smart HTTP, and the suite's merge-check queue to count checks.
 */
import { Queue } from 'bullmq';
import pg from 'pg';
import { expect } from 'vitest';
import { Queues, mergeCheckJobId, type MergeCheckJobData, type PullRequestDto } from '@cairn/contracts';
import { bareRepoPath, commitAll, gitRunner, httpCloneUrl, workspace, type Git, type Workspace } from './git.js';
import { createToken, createUser, http, uniqueName, type Account } from './session.js';
import { sharedTestSuite, startTestSuite, type TestSuite } from './suite.js';

export const FAST_PASSWORD_HASH = { CAIRN__SECURITY__PASSWORD_HASH_ALGO: 'scrypt$1024$8$1' };
export const DELAY_KEY = 'CAIRN__REPOSITORY_PULL_REQUEST__DELAY_CHECK_FOR_INACTIVE_DAYS';

/** Polls until `fn` returns a truthy value (a wait, never an assertion on time: the bound only ends a hung test). */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, limitMs = 60_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One suite with one user, token, repository (auto-initialised) and a work clone over HTTP. */
export class PullsWorld {
  suite!: TestSuite;
  owner!: Account;
  token!: string;
  repo!: string;
  repoId!: number;
  ws!: Workspace;
  git!: Git;
  work!: string;
  queue!: Queue<MergeCheckJobData>;

  /**
   * Starts the world on a suite of its own with `env`, or (`shared`) on the shared suite with those settings: only
   * for files that count nothing queue-wide (`queueIdle` waits for every file's checks).
   */
  async start(env: Record<string, string>, options: { shared?: boolean } = {}): Promise<void> {
    this.suite = options.shared
      ? await sharedTestSuite({ env })
      : await startTestSuite({ env: { ...FAST_PASSWORD_HASH, ...env } });
    const admin = await this.suite.createAdmin();
    this.owner = await createUser(this.suite, admin, uniqueName('dev'));
    this.token = await createToken(this.suite, this.owner);
    this.repo = uniqueName('proj');
    const created = await this.api.post('/user/repos', { token: this.token, body: { name: this.repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    this.repoId = created.body.id;
    this.ws = workspace('cairn-e2e-pulls-');
    this.git = gitRunner(this.ws.dir('home'));
    this.work = this.ws.dir('work');
    const url = httpCloneUrl(this.suite.baseUrl, this.owner.username, this.repo, { username: this.owner.username, secret: this.token });
    await this.git.ok(['clone', '-q', url, this.work]);
    this.queue = new Queue<MergeCheckJobData>(Queues.mergeCheck, {
      connection: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', maxRetriesPerRequest: null },
      prefix: this.suite.env.CAIRN__QUEUE__PREFIX,
    });
  }

  async stop(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
    await this.suite?.stop();
    this.ws?.cleanup();
  }

  get api() {
    return http(this.suite);
  }

  path(p: string): string {
    return `/repos/${this.owner.username}/${this.repo}${p}`;
  }

  /** Commits files on a branch (created from `from` when new) and pushes it over HTTP. */
  async commitAndPush(branch: string, files: Record<string, string>, message: string, from = 'main'): Promise<string> {
    // The server is authoritative (merges and updates move branches there): start from its tip.
    await this.git.ok(['fetch', '-q', 'origin'], { cwd: this.work });
    const remote = (await this.git.try(['rev-parse', '--verify', '-q', `refs/remotes/origin/${branch}`], { cwd: this.work })).code === 0;
    await this.git.ok(['checkout', '-q', '-B', branch, `origin/${remote ? branch : from}`], { cwd: this.work });
    const sha = await commitAll(this.git, this.work, files, message);
    await this.git.ok(['push', '-q', 'origin', `${branch}:${branch}`], { cwd: this.work });
    await this.git.ok(['fetch', '-q', 'origin'], { cwd: this.work });
    return sha;
  }

  bare(...args: string[]): Promise<string> {
    return this.git.ok(['--git-dir', bareRepoPath(this.suite.dataDir, this.owner.username, this.repo), ...args]);
  }

  async tip(branch: string): Promise<string> {
    return this.bare('rev-parse', `refs/heads/${branch}`);
  }

  async open(head: string, title = head): Promise<PullRequestDto> {
    const res = await this.api.post(this.path('/pulls'), { token: this.token, body: { head, base: 'main', title } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** The pull request as the list shows it (listing never triggers a check). */
  async listed(number: number): Promise<PullRequestDto> {
    const res = await this.api.get(this.path('/pulls?state=all&limit=50'), { token: this.token });
    expect(res.status, res.text).toBe(200);
    return (res.body as PullRequestDto[]).find((p) => p.number === number)!;
  }

  /** Waits (through the list) until the pull request has a result for its current base and head. */
  settled(number: number, base?: string): Promise<PullRequestDto> {
    return waitFor(`pull request #${number} to be checked`, async () => {
      const p = await this.listed(number);
      return p.mergeable_state !== 'checking' && (!base || p.base.sha === base) ? p : null;
    });
  }

  async backdate(numbers: number[], days: number): Promise<void> {
    const c = new pg.Client({ connectionString: this.suite.databaseUrl });
    await c.connect();
    try {
      await c.query(
        `UPDATE repo.issues SET updated_at = now() - make_interval(days => $3::int) WHERE repo_id = $1 AND index = ANY($2::int[])`,
        [this.repoId, numbers, days],
      );
    } finally {
      await c.end();
    }
  }

  job(p: PullRequestDto, base: string) {
    return this.queue.getJob(mergeCheckJobId(p.id, base, p.head.sha));
  }

  /** Every check job ever queued for a pull request (any state). */
  async jobsOf(pullId: number) {
    const jobs = await this.queue.getJobs(['completed', 'failed', 'active', 'waiting', 'prioritized', 'delayed']);
    return jobs.filter((j) => j?.data?.pullId === pullId);
  }

  async queueIdle(): Promise<boolean> {
    const c = await this.queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
    return Object.values(c).every((n) => n === 0);
  }
}
