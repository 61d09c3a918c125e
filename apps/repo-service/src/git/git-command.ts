import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnvironment } from '@cairn/platform';

/**
 * How many git processes this process has started, by subcommand. Exported so tests and benchmarks can check that
 * a request costs what it should (e.g. 30 files → no new `cat-file` process once the pool holds one).
 */
export const gitSpawnStats = {
  total: 0,
  bySubcommand: new Map<string, number>(),
  count(subcommand: string): number {
    return this.bySubcommand.get(subcommand) ?? 0;
  },
};

/** A git invocation that failed. The message is for logs only (it may name paths); never shown to clients. */
export class GitCommandError extends Error {
  constructor(
    readonly subcommand: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${subcommand} failed (exit ${code}): ${stderr.trim().slice(0, 300)}`);
    this.name = 'GitCommandError';
  }
}

/**
 * Starts `git --git-dir=<repoPath> <args…>` with an argument vector (never a shell) and the git environment of
 * `@cairn/platform` (pathspecs literal, so a user path can never be read as pathspec magic; replace refs ignored).
 * `repoPath` comes from `repoStoragePath` (validated); callers put `--end-of-options` before any revision and `--`
 * before paths.
 */
export function spawnGit(
  repoPath: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  const subcommand = args[0] ?? '';
  gitSpawnStats.total += 1;
  gitSpawnStats.bySubcommand.set(subcommand, gitSpawnStats.count(subcommand) + 1);
  return spawn('git', [`--git-dir=${repoPath}`, ...args], {
    env: gitEnvironment(extraEnv),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export interface RunGitOptions {
  /** Exit codes that are answers, not failures. */
  okCodes?: number[];
  /** Kill git after this long (ms). */
  timeoutMs?: number;
  /** Refuse (kill git) when stdout grows past this many bytes. */
  maxStdoutBytes?: number;
  /**
   * How git is stopped on a timeout (default SIGKILL). Commands that write (e.g. `commit-graph write`) get SIGTERM,
   * on which git removes its lock files; a killed writer would leave a stale lock that blocks every later write.
   */
  killSignal?: NodeJS.Signals;
  /** Stops git (with `killSignal`) when aborted, e.g. at shutdown; the call then rejects. */
  signal?: AbortSignal;
}

export interface RunGitResult {
  code: number;
  stdout: Buffer;
}

/** Runs one git command to completion and returns its stdout as bytes. */
export function runGit(repoPath: string, args: string[], options: RunGitOptions = {}): Promise<RunGitResult> {
  const { timeoutMs = 60_000, maxStdoutBytes = 64 * 1024 * 1024, killSignal = 'SIGKILL' } = options;
  return new Promise((resolve, reject) => {
    const child = spawnGit(repoPath, args);
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failure: Error | null = null;
    const timer = setTimeout(() => {
      failure = new GitCommandError(args[0] ?? '', null, `timed out after ${timeoutMs} ms`);
      child.kill(killSignal);
    }, timeoutMs);
    timer.unref();
    const onAbort = () => {
      failure ??= new GitCommandError(args[0] ?? '', null, 'aborted');
      child.kill(killSignal);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxStdoutBytes) {
        failure ??= new GitCommandError(args[0] ?? '', null, `output larger than ${maxStdoutBytes} bytes`);
        child.kill('SIGKILL');
        return;
      }
      out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 4096) err += b.toString('utf8');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) {
        resolve({ code, stdout: Buffer.concat(out) });
      } else {
        reject(new GitCommandError(args[0] ?? '', code, err));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end();
  });
}
