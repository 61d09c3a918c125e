import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnvironment } from './git-environment.js';
import {
  gitProcessesFinished, gitProcessesRunning, gitProcessesSpawned, type GitProcessOutcome, SpanKind, endSpan, startSpan,
} from '@cairn/platform';

/** Argument vectors; callers put `--end-of-options` before revisions and `--` before paths; one-shot runs are time- and output-bounded. */

/** Tests and benchmarks count these to check what a request costs. */
export const gitSpawnStats = {
  total: 0,
  bySubcommand: new Map<string, number>(),
  count(subcommand: string): number {
    return this.bySubcommand.get(subcommand) ?? 0;
  },
};

const subcommandOf = new WeakMap<ChildProcessWithoutNullStreams, string>();

const GLOBAL_OPTIONS_WITH_VALUE = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace']);

export function gitSubcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (GLOBAL_OPTIONS_WITH_VALUE.has(a)) i += 1;
    else if (!a.startsWith('-')) return a;
  }
  return '';
}

/** The message may name paths: for logs, never for clients. */
export class GitCommandError extends Error {
  constructor(
    readonly subcommand: string,
    /** Null when git was killed or never ran. */
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${subcommand} failed (${code === null ? 'no exit code' : `exit ${code}`}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitCommandError';
  }
}

export interface SpawnGitOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Long-lived commands answering over stdio (`merge-tree --stdin`) would not flush per request without `stdbuf -o0`. */
  unbuffered?: boolean;
}

/** `gitDir` null for commands that take the repository as an operand (`upload-pack`). */
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

/** One-shot runs keep the `first` bytes (git's first lines say what went wrong); long-lived ones keep the `last`. */
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

/** Stdin closed first (git exits by itself); killed after `graceMs`. */
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
  input?: string | Buffer;
  timeoutMs?: number;
  /** Writers (`commit-graph write`) get SIGTERM so git removes its lock files; a killed writer leaves a stale lock. */
  killSignal?: NodeJS.Signals;
  maxStdoutBytes?: number;
  signal?: AbortSignal;
}

export interface GitRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

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

/** `okCodes`: exit codes that are answers (1 for `rev-parse --verify --quiet`). */
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

export async function runGitText(
  gitDir: string | null,
  args: readonly string[],
  options: RunGitOptions & { okCodes?: readonly number[] } = {},
): Promise<string> {
  return (await runGitChecked(gitDir, args, options)).stdout.toString('utf8');
}
