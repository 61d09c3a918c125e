import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitCommandError, gitSpawnStats, runGit, runGitChecked, runGitText, spawnGit, stopGit } from './git-process.js';
import { gitProcessesFinished, gitProcessesRunning, gitProcessesSpawned } from '@cairn/platform';

async function valueOf(metric: { get(): Promise<{ values: { labels: object; value: number }[] }> }, labels: object = {}) {
  const { values } = await metric.get();
  return values.find((v) => JSON.stringify(v.labels) === JSON.stringify(labels))?.value ?? 0;
}

const identity = {
  GIT_AUTHOR_NAME: 'Cairn',
  GIT_AUTHOR_EMAIL: 'cairn@localhost',
  GIT_COMMITTER_NAME: 'Cairn',
  GIT_COMMITTER_EMAIL: 'cairn@localhost',
};

describe('git process (real git)', () => {
  let root: string;
  let repo: string;
  let commit: string;
  // The credential cache daemon runs until stopped (its socket must be in a private directory, as mkdtemp's are).
  const neverEnding = () => ['credential-cache--daemon', path.join(root, `socket-${Math.random().toString(36).slice(2)}`)];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'cairn-git-process-'));
    repo = path.join(root, 'r.git');
    await runGitChecked(null, ['init', '-q', '--bare', '-b', 'main', '--', repo]);
    const tree = (await runGitText(repo, ['mktree'], { input: '' })).trim();
    commit = (await runGitText(repo, ['commit-tree', '-m', 'first', tree], { env: identity })).trim();
    await runGitChecked(repo, ['update-ref', 'refs/heads/main', commit]);
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('runs with the repository as --git-dir and returns stdout', async () => {
    expect((await runGitText(repo, ['rev-parse', '--verify', '--end-of-options', 'main'])).trim()).toBe(commit);
  });

  it('kills a git that exceeds its time limit and says so', async () => {
    const run = await runGit(null, neverEnding(), { timeoutMs: 300 });
    expect(run.timedOut).toBe(true);
    expect(run.code).toBeNull();
    await expect(runGitChecked(null, neverEnding(), { timeoutMs: 300 })).rejects.toThrow(/timed out after 300 ms/);
  });

  it('kills a git whose run is aborted', async () => {
    const abort = new AbortController();
    const running = runGit(null, neverEnding(), { signal: abort.signal });
    abort.abort();
    await expect(running).rejects.toThrow(/aborted/);
  });

  it('captures stderr into the error of a failed command, with the exit code', async () => {
    const failure = await runGitChecked(repo, ['rev-parse', '--verify', '--end-of-options', 'no-such-branch']).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GitCommandError);
    const err = failure as GitCommandError;
    expect(err.subcommand).toBe('rev-parse');
    expect(err.code).toBe(128);
    expect(err.stderr).toMatch(/Needed a single revision/);
    // The unchecked run reports the same without throwing; okCodes make a code an answer.
    const run = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', 'no-such-branch']);
    expect(run.code).toBe(1);
    await expect(
      runGitChecked(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', 'no-such-branch'], { okCodes: [1] }),
    ).resolves.toMatchObject({ code: 1 });
  });

  it('refuses output beyond the limit', async () => {
    await expect(runGit(repo, ['cat-file', 'commit', commit], { maxStdoutBytes: 10 })).rejects.toThrow(/output larger than 10 bytes/);
  });

  it('--end-of-options keeps a revision starting with "-" from being read as an option', async () => {
    const target = path.join(root, 'written-by-git');
    const hostile = `--output=${target}`;
    // Behind --end-of-options the input is not an option (git refuses it as an argument) and nothing is written.
    const guarded = await runGit(repo, ['log', '--end-of-options', hostile]);
    expect(guarded.code).not.toBe(0);
    expect(existsSync(target)).toBe(false);
    // The same input without it is an option: git writes a file of the caller's choosing.
    const unguarded = await runGit(repo, ['log', hostile]);
    expect(unguarded.code).toBe(0);
    expect(existsSync(target)).toBe(true);
  });

  it('counts the processes it starts by subcommand, after global options', async () => {
    const before = gitSpawnStats.count('rev-parse');
    await runGit(repo, ['-c', 'core.quotePath=false', 'rev-parse', 'HEAD']);
    expect(gitSpawnStats.count('rev-parse')).toBe(before + 1);
  });

  it('reports in Prometheus metrics what it started, how each ended, and that none is left running', async () => {
    const before = {
      spawned: await valueOf(gitProcessesSpawned, { subcommand: 'rev-parse' }),
      ok: await valueOf(gitProcessesFinished, { outcome: 'ok' }),
      exitCode: await valueOf(gitProcessesFinished, { outcome: 'exit_code' }),
      killed: await valueOf(gitProcessesFinished, { outcome: 'killed' }),
      running: await valueOf(gitProcessesRunning),
    };
    await runGit(repo, ['rev-parse', '--verify', '--end-of-options', 'main']);
    await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', 'no-such-branch']);
    expect((await runGit(null, neverEnding(), { timeoutMs: 200 })).timedOut).toBe(true);
    expect(await valueOf(gitProcessesSpawned, { subcommand: 'rev-parse' })).toBe(before.spawned + 2);
    expect(await valueOf(gitProcessesFinished, { outcome: 'ok' })).toBe(before.ok + 1);
    expect(await valueOf(gitProcessesFinished, { outcome: 'exit_code' })).toBe(before.exitCode + 1);
    expect(await valueOf(gitProcessesFinished, { outcome: 'killed' })).toBe(before.killed + 1);
    expect(await valueOf(gitProcessesRunning)).toBe(before.running);
  });

  it('starts long-lived processes (unbuffered through stdbuf) and stops them', async () => {
    const child = spawnGit(repo, ['cat-file', '--batch-check'], { unbuffered: true });
    const answer = new Promise<string>((resolve) => child.stdout.once('data', (b: Buffer) => resolve(b.toString('utf8'))));
    child.stdin.write(`${commit}\n`);
    expect(await answer).toBe(`${commit} commit ${(await runGitText(repo, ['cat-file', 'commit', commit])).length}\n`);
    await stopGit(child);
    expect(child.exitCode).toBe(0);
  });
});
