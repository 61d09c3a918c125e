import { spawn } from 'node:child_process';
import { gitEnvironment } from '@cairn/platform';

/** What one git process did. */
export interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Killed because it exceeded its time limit. */
  timedOut: boolean;
}

export interface GitExecOptions {
  /**
   * Added to the git environment of `@cairn/platform` (identities, object directories); nothing else of the service's
   * environment reaches git.
   */
  env?: Record<string, string | undefined>;
  /** Written to git's stdin (then closed). */
  input?: string | Buffer;
  /** Kill the process (SIGKILL) after this long. */
  timeoutMs?: number;
  /** Refuse output beyond this many bytes. */
  maxBytes?: number;
}

/**
 * Runs git on a bare repository with an argument vector (never a shell): `git --git-dir <dir> <args…>`. Callers pass
 * only validated refs and object ids, after `--end-of-options` where git accepts it. Resolves with the exit code;
 * never rejects for a non-zero exit (callers decide what a code means).
 */
export function execGit(dir: string, args: string[], options: GitExecOptions = {}): Promise<GitResult> {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, ...args], {
      env: gitEnvironment(options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    let timedOut = false;
    let overflow = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, options.timeoutMs)
      : undefined;
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (err.length < 8192) err += chunk.toString('utf8');
    });
    if (options.input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(options.input);
    }
    child.once('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      if (timer) clearTimeout(timer);
      if (overflow) return reject(new Error(`git ${args[0]}: output exceeds ${maxBytes} bytes`));
      resolve({ code, stdout: Buffer.concat(out), stderr: err, timedOut });
    });
  });
}

/** Runs git and returns its stdout as text; rejects with git's message on a non-zero exit. */
export async function gitText(dir: string, args: string[], options: GitExecOptions = {}): Promise<string> {
  const r = await execGit(dir, args, options);
  if (r.code !== 0) {
    throw new Error(`git ${args[0]} failed (${r.timedOut ? 'timed out' : `exit ${r.code}`}): ${r.stderr.trim()}`);
  }
  return r.stdout.toString('utf8');
}
