import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The environment every git process of the worker runs with: a minimal one, so the worker's secrets never reach git,
 * and neither the machine's nor the user's git configuration changes what a check computes.
 */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/',
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    ...extra,
  };
}

/**
 * Starts a long-lived git command on a bare repository that answers requests written to its stdin. With `unbuffered`
 * it runs under coreutils' `stdbuf -o0` (an exec, not an extra process): `git merge-tree --stdin` writes its answers
 * through stdio and does not flush them per request, so without it an answer would sit in git's buffer.
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
