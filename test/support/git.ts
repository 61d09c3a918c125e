/**
 * The real `git`, `ssh` and `ssh-keygen` for end-to-end tests: temporary working folders, git run with an isolated
 * environment (no user or system configuration, never a password prompt), clone URLs with credentials for smart
 * HTTP, `GIT_SSH_COMMAND` for the suite's SSH server, and key pairs. Every process is spawned with an argument
 * vector, never through a shell.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The apps the repository and git end-to-end suites start: everything the API's readiness needs (identity, repo,
 * hooks, runners, gateway). The merge-check worker plays no part in repositories or git transport, and two cores are
 * better spent elsewhere.
 */
export const REPO_SUITE_APPS = ['identity-service', 'repo-service', 'hooks-service', 'runners-service', 'gateway'];

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  /** Kill the process after this long (a safety net against hangs, never an assertion). Default 120 s. */
  timeoutMs?: number;
}

/** Runs a program to completion and collects its output; never throws for a non-zero exit. */
export function run(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv | undefined,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    timer.unref();
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** One temporary root for a test file: folders inside it, removed together by `cleanup()`. */
export interface Workspace {
  root: string;
  /** A new empty folder inside the workspace. */
  dir: (stem?: string) => string;
  cleanup: () => void;
}

export function workspace(prefix = 'cairn-e2e-git-'): Workspace {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  let n = 0;
  return {
    root,
    dir(stem = 'dir') {
      const dir = path.join(root, `${stem}-${n++}`);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The environment git runs with: the caller's PATH and nothing of the user's git or ssh setup (a private HOME, no
 * global or system configuration), no terminal or askpass prompt (a refused credential fails at once), a fixed
 * identity for commits, and `extra` on top (e.g. `GIT_SSH_COMMAND`, commit dates).
 */
export function gitEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_AUTHOR_NAME: 'E2E Author',
    GIT_AUTHOR_EMAIL: 'e2e-author@example.com',
    GIT_COMMITTER_NAME: 'E2E Committer',
    GIT_COMMITTER_EMAIL: 'e2e-committer@example.com',
    ...extra,
  };
}

/** A git runner bound to one HOME (and optional extra environment). */
export interface Git {
  /** Runs git; resolves with the exit code and output whatever the outcome. */
  try: (args: string[], options?: RunOptions) => Promise<RunResult>;
  /** Runs git and throws with its output when it fails; resolves with trimmed stdout. */
  ok: (args: string[], options?: RunOptions) => Promise<string>;
  env: Record<string, string | undefined>;
}

export function gitRunner(home: string, extra: Record<string, string | undefined> = {}): Git {
  const env = gitEnv(home, extra);
  const tryGit = (args: string[], options: RunOptions = {}) =>
    run('git', args, { ...options, env: { ...env, ...options.env } });
  return {
    env,
    try: tryGit,
    async ok(args, options) {
      const r = await tryGit(args, options);
      if (r.code !== 0) {
        throw new Error(`git ${redactArgs(args).join(' ')} failed (exit ${r.code}):\n${redact(r.stderr)}${redact(r.stdout)}`);
      }
      return r.stdout.trim();
    },
  };
}

/** Credentials never appear in assertion messages. */
export function redact(text: string): string {
  return text.replace(/(\/\/[^/:@\s]+:)[^@\s/]+@/g, '$1***@').replace(/(Authorization: )\S+( \S+)?/gi, '$1***');
}

function redactArgs(args: string[]): string[] {
  return args.map(redact);
}

/** `http://[user:secret@]host:port/owner/repo.git` for the suite's gateway (credentials URL-encoded). */
export function httpCloneUrl(
  baseUrl: string,
  owner: string,
  repo: string,
  credentials?: { username: string; secret: string },
): string {
  const u = new URL(`${baseUrl}/${owner}/${repo}.git`);
  if (credentials) {
    u.username = encodeURIComponent(credentials.username);
    u.password = encodeURIComponent(credentials.secret);
  }
  return u.toString();
}

/** `ssh://git@127.0.0.1:PORT/owner/repo.git`. */
export function sshCloneUrl(sshPort: number, owner: string, repo: string): string {
  return `ssh://git@127.0.0.1:${sshPort}/${owner}/${repo}.git`;
}

/** The ssh options every test connection uses: this key only, no host-key bookkeeping, never a prompt. */
export function sshOptions(privateKeyPath: string, port: number): string[] {
  return [
    '-i', privateKeyPath,
    '-o', 'StrictHostKeyChecking=no',
    '-o', 'UserKnownHostsFile=/dev/null',
    '-o', 'IdentitiesOnly=yes',
    '-o', 'BatchMode=yes',
    '-o', 'LogLevel=ERROR',
    '-p', String(port),
  ];
}

/** `GIT_SSH_COMMAND` for a key and port (the key path is a temporary path without spaces). */
export function gitSshCommand(privateKeyPath: string, port: number): string {
  return ['ssh', ...sshOptions(privateKeyPath, port)].join(' ');
}

/** Runs `ssh git@127.0.0.1 <remote command>` directly (to see how the server answers arbitrary commands). */
export function sshExec(privateKeyPath: string, port: number, remoteCommand: string, home: string): Promise<RunResult> {
  return run('ssh', [...sshOptions(privateKeyPath, port), 'git@127.0.0.1', remoteCommand], {
    env: { PATH: process.env.PATH, HOME: home },
    timeoutMs: 60_000,
  });
}

export interface KeyPair {
  /** The `authorized_keys` line. */
  publicKey: string;
  privateKeyPath: string;
}

/** A fresh ed25519 key pair made by `ssh-keygen` in `dir`. */
export async function generateSshKey(dir: string, comment = 'e2e@cairn'): Promise<KeyPair> {
  mkdirSync(dir, { recursive: true });
  let file = path.join(dir, 'id_ed25519');
  for (let i = 0; existsSync(file); i++) file = path.join(dir, `id_ed25519_${i}`);
  const r = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
  if (r.code !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return { publicKey: readFileSync(`${file}.pub`, 'utf8').trim(), privateKeyPath: file };
}

/** Writes files (creating folders) inside a working tree. */
export function writeFiles(workTree: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(workTree, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/**
 * Writes files and commits them (everything in the tree) with a message and, optionally, fixed author and committer
 * dates (`@<unix seconds> +0000`, exact to the second); resolves with the new commit id.
 */
export async function commitAll(
  git: Git,
  workTree: string,
  files: Record<string, string | Buffer>,
  message: string,
  dateSeconds?: number,
): Promise<string> {
  writeFiles(workTree, files);
  await git.ok(['add', '--all'], { cwd: workTree });
  const date = dateSeconds === undefined ? undefined : `@${dateSeconds} +0000`;
  await git.ok(['commit', '-q', '--allow-empty', '-m', message], {
    cwd: workTree,
    env: date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {},
  });
  return git.ok(['rev-parse', 'HEAD'], { cwd: workTree });
}

/** `<REPO_ROOT>/<owner>/<repo>.git` of a suite (lower-cased, as repo-service stores it). */
export function bareRepoPath(dataDir: string, owner: string, repo: string): string {
  return path.join(dataDir, 'repositories', owner.toLowerCase(), `${repo.toLowerCase()}.git`);
}
