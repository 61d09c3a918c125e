import { spawn } from 'node:child_process';
import { gitEnvironment } from '@cairn/platform';

export interface GitRunOptions {
  /** Bytes or text written to git's stdin. */
  input?: string | Buffer;
  /** Extra environment (GIT_AUTHOR_NAME, …). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for `rev-parse --verify --quiet`). */
  okCodes?: number[];
}

export interface GitResult {
  code: number;
  stdout: string;
}

/** A git invocation that failed; the message names the subcommand and git's error text (never shown to clients). */
export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    const subcommand = args.find((a) => !a.startsWith('--git-dir=')) ?? '';
    super(`git ${subcommand} failed (exit ${code}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitCommandError';
  }
}

/** Runs git with an argument vector (never a shell) and the git environment of `@cairn/platform`; collects its output. */
export function runGit(args: string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnvironment(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0 || (code !== null && options.okCodes?.includes(code))) {
        resolve({ code, stdout });
      } else {
        reject(new GitCommandError(args, code, Buffer.concat(err).toString('utf8')));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
