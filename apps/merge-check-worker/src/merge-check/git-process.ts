import { spawn, type ChildProcess } from 'node:child_process';
import { gitEnvironment } from '@cairn/platform';

/**
 * Starts a long-lived git command on a bare repository that answers requests written to its stdin. With `unbuffered`
 * it runs under coreutils' `stdbuf -o0` (an exec, not an extra process): `git merge-tree --stdin` writes its answers
 * through stdio and does not flush them per request, so without it an answer would sit in git's buffer. It runs with
 * the git environment of `@cairn/platform` (the worker's secrets never reach git), plus `env`.
 */
export function spawnGitServer(dir: string, args: string[], env: Record<string, string>, unbuffered: boolean): ChildProcess {
  const argv = ['--git-dir', dir, ...args];
  return unbuffered
    ? spawn('stdbuf', ['-o0', 'git', ...argv], { env: gitEnvironment(env), stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn('git', argv, { env: gitEnvironment(env), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Keeps the last `limit` characters of a process's stderr (for error messages). */
export function collectStderr(child: ChildProcess, limit = 8192): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    text = (text + c).slice(-limit);
  });
  return () => text.trim();
}

/** Ends a server process: stdin closed (it exits by itself), killed if it has not exited after `graceMs`. */
export function stopGitServer(child: ChildProcess, graceMs = 2_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin?.end();
  });
}
