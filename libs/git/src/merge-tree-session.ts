import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isObjectId } from '@cairn/contracts';
import { collectStderr, runGit, spawnGit, stopGit } from './git-process.js';
import { mergeTimedOut, type MergeTreeOutcome } from './merge-tree.js';


/** `<1|0> NUL <tree> NUL (<path> NUL)* NUL`; null while incomplete. */
export function readMergeAnswer(buf: Buffer): { outcome: MergeTreeOutcome; length: number } | null {
  const statusEnd = buf.indexOf(0);
  if (statusEnd < 0) return null;
  const treeEnd = buf.indexOf(0, statusEnd + 1);
  if (treeEnd < 0) return null;
  const files: string[] = [];
  let at = treeEnd + 1;
  for (;;) {
    if (at >= buf.length) return null;
    if (buf[at] === 0) break;
    const end = buf.indexOf(0, at);
    if (end < 0) return null;
    files.push(buf.toString('utf8', at, end));
    at = end + 1;
  }
  const length = at + 1;
  const status = buf.toString('utf8', 0, statusEnd);
  const tree = buf.toString('utf8', statusEnd + 1, treeEnd);
  if (!isObjectId(tree) || (status !== '0' && status !== '1')) {
    return { outcome: { kind: 'error', message: `unexpected merge-tree answer ${JSON.stringify(status).slice(0, 40)}` }, length };
  }
  if (status === '1') return { outcome: { kind: 'clean', tree }, length };
  // Some git versions list a path once per conflicted stage: keep each name once.
  return { outcome: { kind: 'conflict', tree, files: [...new Set(files)] }, length };
}

interface Pending {
  resolve: (outcome: MergeTreeOutcome) => void;
  timer: NodeJS.Timeout;
}

/** No process start per check; trees go to a scratch object dir. git 2.39 exits on a merge it cannot do, killing the session. */
export class MergeTreeSession {
  merges = 0;
  lastUsedAt = Date.now();
  private buf: Buffer = Buffer.alloc(0);
  private pending?: Pending;
  private exited = false;
  private readonly stderr: () => string;

  private constructor(
    readonly dir: string,
    readonly scratch: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    this.stderr = collectStderr(child, { keep: 'last' });
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    child.once('error', (err) => this.onExit(err.message));
    child.once('close', (code, signal) => this.onExit(`git merge-tree exited with ${code ?? signal}`));
  }

  static async open(dir: string, unbuffered: boolean): Promise<MergeTreeSession> {
    const scratch = await mkdtemp(join(tmpdir(), 'cairn-merge-check-'));
    try {
      const child = spawnGit(dir, ['merge-tree', '--write-tree', '--stdin', '-z', '--name-only', '--no-messages'], {
        env: { GIT_OBJECT_DIRECTORY: scratch, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(dir, 'objects') },
        unbuffered,
      });
      return new MergeTreeSession(dir, scratch, child);
    } catch (err) {
      await rm(scratch, { recursive: true, force: true });
      throw err;
    }
  }

  get alive(): boolean {
    return !this.exited;
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  merge(base: string, head: string, timeoutMs: number): Promise<MergeTreeOutcome> {
    if (!isObjectId(base) || !isObjectId(head)) throw new Error('base and head must be full object ids');
    if (this.pending) throw new Error('a merge-tree session answers one merge at a time');
    if (this.exited) return Promise.resolve({ kind: 'error', message: this.exitMessage('the merge-tree process has ended') });
    this.lastUsedAt = Date.now();
    this.merges += 1;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.finish(mergeTimedOut(timeoutMs));
        // Dead at once, not when the kill lands: the session must not be handed out again.
        this.exited = true;
        this.child.kill('SIGKILL');
      }, timeoutMs);
      this.pending = { resolve, timer };
      this.child.stdin.write(`${base} ${head}\n`);
    });
  }

  async close(): Promise<void> {
    await stopGit(this.child);
    await rm(this.scratch, { recursive: true, force: true });
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const answer = readMergeAnswer(this.buf);
    if (!answer) return;
    this.buf = this.buf.subarray(answer.length);
    this.finish(answer.outcome);
  }

  private onExit(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    this.finish({ kind: 'error', message: this.exitMessage(reason) });
  }

  private exitMessage(fallback: string): string {
    return (this.stderr() || fallback).slice(0, 2000);
  }

  private finish(outcome: MergeTreeOutcome): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    p.resolve(outcome);
  }
}

/** Every repository has it without storing it. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Probes `stdbuf` and `merge-tree --stdin` by merging a commit with itself in a scratch repository. */
export async function probeMergeTreeSessions(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-merge-check-probe-'));
  try {
    const dir = join(root, 'probe.git');
    const init = await runGit(null, ['init', '--bare', '--quiet', '--', dir], { timeoutMs: 10_000 });
    if (init.code !== 0) throw new Error(init.stderr || 'git init failed');
    const identity = { GIT_AUTHOR_NAME: 'Cairn', GIT_AUTHOR_EMAIL: 'cairn@localhost', GIT_COMMITTER_NAME: 'Cairn', GIT_COMMITTER_EMAIL: 'cairn@localhost' };
    const made = await runGit(dir, ['commit-tree', '-m', 'probe', EMPTY_TREE], { env: identity, timeoutMs: 10_000 });
    const commit = made.stdout.toString('utf8').trim();
    if (made.code !== 0 || !isObjectId(commit)) throw new Error(made.stderr || 'git commit-tree failed');
    const session = await MergeTreeSession.open(dir, true);
    try {
      const outcome = await session.merge(commit, commit, 10_000);
      if (outcome.kind !== 'clean') throw new Error(outcome.kind === 'error' ? outcome.message : 'unexpected answer');
    } finally {
      await session.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
