import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnvironment } from './git-environment.js';
import {
  gitProcessesFinished, gitProcessesRunning, gitProcessesSpawned, type GitProcessOutcome, SpanKind, endSpan, startSpan,
} from '@cairn/platform';

/**
 * The one way Cairn starts git (the home of this rule; `gitEnvironment()` is its environment):
 *
 * - an argument vector, never a shell: nothing in an argument is ever interpreted;
 * - `--git-dir=<dir>` from a validated storage path ({@link repoStoragePath}) when a repository is named;
 * - callers put `--end-of-options` before revisions (every subcommand that parses revisions accepts it; a ref name
 *   or id that starts with `-` is then a revision, never an option) and `--` before paths;
 * - one-shot commands ({@link runGit}) have a time limit that kills the process, bounded stdout and a bounded stderr
 *   kept for the error message. Long-lived processes (cat-file pools, merge-tree sessions, the transport) keep their
 *   own lifecycle but start through {@link spawnGit}, and can use {@link watchGitExit} / {@link stopGit}.
 */

/** How many git processes this process has started, by subcommand: tests and benchmarks check what a request costs. */
export const gitSpawnStats = {
  total: 0,
  bySubcommand: new Map<string, number>(),
  count(subcommand: string): number {
    return this.bySubcommand.get(subcommand) ?? 0;
  },
};

/** The subcommand each process was started for (for error messages). */
const subcommandOf = new WeakMap<ChildProcessWithoutNullStreams, string>();

/** Global options of git that take the next argument as their value. */
const GLOBAL_OPTIONS_WITH_VALUE = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace']);

/** The subcommand of an argument vector (after git's global options): `log` for `-c a=b log …`. */
export function gitSubcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (GLOBAL_OPTIONS_WITH_VALUE.has(a)) i += 1;
    else if (!a.startsWith('-')) return a;
  }
  return '';
}

/** A git run that failed. The message is for logs (it may name paths); never show it to clients. */
export class GitCommandError extends Error {
  constructor(
    readonly subcommand: string,
    /** The exit code; null when git was killed (time limit, output limit, abort) or never ran. */
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${subcommand} failed (${code === null ? 'no exit code' : `exit ${code}`}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitCommandError';
  }
}

export interface SpawnGitOptions {
  /** Added to {@link gitEnvironment} (identities, object directories, `GIT_PROTOCOL`…). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Run under coreutils' `stdbuf -o0` (an exec, not an extra process): for a long-lived command that answers over
   * stdio without flushing per request (`git merge-tree --stdin`).
   */
  unbuffered?: boolean;
}

/**
 * Starts `git [--git-dir=<gitDir>] <args…>` (see the rules above) with all three stdio streams piped. `gitDir` is
 * null for commands that take the repository as an operand (`upload-pack … --end-of-options <dir>`).
 */
export function spawnGit(
  gitDir: string | null,
  args: readonly string[],
  options: SpawnGitOptions = {},
): ChildProcessWithoutNullStreams {
  const argv = gitDir === null ? [...args] : [`--git-dir=${gitDir}`, ...args];
  const subcommand = gitSubcommand(args);
  gitSpawnStats.total += 1;
  gitSpawnStats.bySubcommand.set(subcommand, gitSpawnStats.count(subcommand) + 1);
  const env = gitEnvironment(options.env);
  const [command, commandArgs] = options.unbuffered ? ['stdbuf', ['-o0', 'git', ...argv]] : ['git', argv];
  const child = spawn(command, commandArgs, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  // git may exit before it has read its stdin; the exit says what happened, the write error (EPIPE) says nothing.
  child.stdin.on('error', () => undefined);
  subcommandOf.set(child, subcommand);
  countGitProcess(child, subcommand);
  traceGitProcess(child, subcommand);
  return child;
}

/** `cairn_git_processes_*`: started by subcommand, running now, and how each ended. */
function countGitProcess(child: ChildProcessWithoutNullStreams, subcommand: string): void {
  gitProcessesSpawned.inc({ subcommand });
  gitProcessesRunning.inc();
  let ended = false;
  const end = (outcome: GitProcessOutcome) => {
    if (ended) return;
    ended = true;
    gitProcessesRunning.dec();
    gitProcessesFinished.inc({ outcome });
  };
  child.once('error', () => end('spawn_error'));
  child.once('exit', (code) => end(code === 0 ? 'ok' : code === null ? 'killed' : 'exit_code'));
}

/** A span per git process (while tracing), from its start to its exit, with its subcommand and exit code. */
function traceGitProcess(child: ChildProcessWithoutNullStreams, subcommand: string): void {
  const started = startSpan(`git ${subcommand}`, {
    kind: SpanKind.INTERNAL,
    attributes: { 'process.executable.name': 'git', 'cairn.git.subcommand': subcommand },
  });
  if (!started) return;
  let ended = false;
  const end = (error?: unknown) => {
    if (ended) return;
    ended = true;
    endSpan(started, error);
  };
  child.once('error', end);
  child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
    started.span.setAttribute('process.exit.code', code ?? -1);
    end(code === 0 ? undefined : `git ${subcommand} ended with ${code === null ? signal : `exit ${code}`}`);
  });
}

/**
 * Keeps a bounded part of a process's stderr and returns a reader for it (trimmed). One-shot commands keep the
 * beginning (`first`: git's first lines say what went wrong); long-lived processes keep the `last` characters (what
 * they said before they ended, not warnings from hours ago).
 */
export function collectStderr(
  child: ChildProcessWithoutNullStreams,
  options: { limit?: number; keep?: 'first' | 'last' } = {},
): () => string {
  const { limit = 8192, keep = 'first' } = options;
  let text = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (keep === 'last') text = (text + chunk.toString('utf8')).slice(-limit);
    else if (text.length < limit) text += chunk.toString('utf8').slice(0, limit - text.length);
  });
  return () => text.trim();
}

/**
 * Calls `settle` once, when a git process has gone: with null after exit 0 (or a code in `okCodes`), else with why
 * it ended — it could not start, or a {@link GitCommandError} with the start of git's stderr.
 */
export function watchGitExit(
  child: ChildProcessWithoutNullStreams,
  settle: (error: Error | null, code: number | null) => void,
  okCodes: readonly number[] = [],
): void {
  const subcommand = subcommandOf.get(child) ?? '';
  const stderr = collectStderr(child);
  let settled = false;
  const once = (error: Error | null, code: number | null) => {
    if (settled) return;
    settled = true;
    settle(error, code);
  };
  child.on('error', (err) => once(err, null));
  child.on('close', (code) =>
    once(code === 0 || (code !== null && okCodes.includes(code)) ? null : new GitCommandError(subcommand, code, stderr()), code),
  );
}

/** Ends a long-lived git process: stdin closed (git exits by itself), killed if it has not gone after `graceMs`. */
export function stopGit(child: ChildProcessWithoutNullStreams, graceMs = 2_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin.end();
  });
}

export interface RunGitOptions extends SpawnGitOptions {
  /** Written to git's stdin, which is then closed (closed at once without it). */
  input?: string | Buffer;
  /** Kill git after this long (default one minute); the run then reports `timedOut`. */
  timeoutMs?: number;
  /**
   * How git is stopped on a timeout or abort (default SIGKILL). Commands that write (`commit-graph write`) get
   * SIGTERM, on which git removes its lock files; a killed writer would leave a stale lock that blocks later writes.
   */
  killSignal?: NodeJS.Signals;
  /** Refuse (kill git and reject) when stdout grows past this many bytes (default 64 MiB). */
  maxStdoutBytes?: number;
  /** Stops git (with `killSignal`) when aborted, e.g. at shutdown; the run then rejects. */
  signal?: AbortSignal;
}

/** What one git run did. */
export interface GitRun {
  /** The exit code; null when git was killed. */
  code: number | null;
  stdout: Buffer;
  /** The beginning of git's stderr (8 KiB at most). */
  stderr: string;
  /** Killed because it exceeded its time limit. */
  timedOut: boolean;
}

/**
 * Runs one git command to its end (see the rules above). Resolves whatever the exit code — callers that treat a
 * code as an answer read it; {@link runGitChecked} rejects instead. Rejects when git cannot start, its output
 * exceeds the limit, or `signal` aborts it.
 */
export function runGit(gitDir: string | null, args: readonly string[], options: RunGitOptions = {}): Promise<GitRun> {
  const { timeoutMs = 60_000, maxStdoutBytes = 64 * 1024 * 1024, killSignal = 'SIGKILL' } = options;
  const subcommand = gitSubcommand(args);
  return new Promise((resolve, reject) => {
    const child = spawnGit(gitDir, args, options);
    const stderr = collectStderr(child);
    const out: Buffer[] = [];
    let outBytes = 0;
    let timedOut = false;
    let failure: Error | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill(killSignal);
    }, timeoutMs);
    timer.unref();
    const onAbort = () => {
      failure ??= new GitCommandError(subcommand, null, 'aborted');
      child.kill(killSignal);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdoutBytes) {
        failure ??= new GitCommandError(subcommand, null, `output larger than ${maxStdoutBytes} bytes`);
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.once('error', (err) => {
      done();
      reject(err);
    });
    child.once('close', (code) => {
      done();
      if (failure) reject(failure);
      else resolve({ code, stdout: Buffer.concat(out), stderr: stderr(), timedOut });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * {@link runGit} for commands whose failure is an error: rejects with a {@link GitCommandError} on a time-out or an
 * exit code other than 0 and `okCodes` (codes that are answers, e.g. 1 for `rev-parse --verify --quiet`).
 */
export async function runGitChecked(
  gitDir: string | null,
  args: readonly string[],
  options: RunGitOptions & { okCodes?: readonly number[] } = {},
): Promise<GitRun & { code: number }> {
  const run = await runGit(gitDir, args, options);
  if (run.timedOut) {
    throw new GitCommandError(gitSubcommand(args), null, `timed out after ${options.timeoutMs ?? 60_000} ms`);
  }
  if (run.code === 0 || (run.code !== null && options.okCodes?.includes(run.code))) return { ...run, code: run.code };
  throw new GitCommandError(gitSubcommand(args), run.code, run.stderr);
}

/** {@link runGitChecked} for commands whose output is text: git's stdout as UTF-8. */
export async function runGitText(
  gitDir: string | null,
  args: readonly string[],
  options: RunGitOptions & { okCodes?: readonly number[] } = {},
): Promise<string> {
  return (await runGitChecked(gitDir, args, options)).stdout.toString('utf8');
}
