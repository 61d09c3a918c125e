import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { isObjectId } from '@cairn/contracts';
import { LruCache } from '@cairn/platform';
import { collectStderr, spawnGit, stopGit } from '@cairn/git';
import { parseCommitLinks, type CommitLinks } from './merge-base.js';


/**
 * Commits already read, by object id. An object id names its content, so an entry is right in every repository
 * that has the commit; bounded (a base push makes many checks walk the same base commits).
 */
const known = new LruCache<CommitLinks>(50_000);

/**
 * Reads commits of one repository through one long-lived `git cat-file --batch` (it answers each request as it
 * comes: no process per check). Requests are answered in order; a missing object or a non-commit reads as null.
 */
export class CommitReader {
  private buf: Buffer = Buffer.alloc(0);
  private readonly waiting: { oid: string; resolve: (l: CommitLinks | null) => void; reject: (e: Error) => void }[] = [];
  private exited = false;
  private readonly stderr: () => string;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(readonly dir: string) {
    this.child = spawnGit(dir, ['cat-file', '--batch']);
    this.stderr = collectStderr(this.child, { keep: 'last' });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.once('error', (err) => this.onExit(err.message));
    this.child.once('close', (code, signal) => this.onExit(`git cat-file exited with ${code ?? signal}`));
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The commits' parents and times, in the order asked; rejects if the process ended. */
  read = (oids: string[]): Promise<(CommitLinks | null)[]> =>
    Promise.all(
      oids.map((oid) => {
        const hit = known.get(oid);
        if (hit) return hit;
        if (!isObjectId(oid)) return null;
        if (this.exited) return Promise.reject(new Error(this.stderr() || 'git cat-file has ended'));
        return new Promise<CommitLinks | null>((resolve, reject) => {
          this.waiting.push({ oid, resolve, reject });
          this.child.stdin.write(`${oid}\n`);
        });
      }),
    );

  close(): Promise<void> {
    return stopGit(this.child);
  }

  /** Ends the process at once (a walk that ran out of time); the reader is dead from now on. */
  kill(): void {
    this.onExit('the walk ran out of time');
    this.child.kill('SIGKILL');
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      const head = this.buf.indexOf(10);
      if (head < 0) return;
      const line = this.buf.toString('utf8', 0, head);
      const [oid, type, sizeText] = line.split(' ');
      const next = this.waiting[0];
      if (type === 'missing' || type === 'ambiguous' || sizeText === undefined) {
        this.buf = this.buf.subarray(head + 1);
        this.waiting.shift();
        next?.resolve(null);
        continue;
      }
      const size = Number(sizeText);
      if (this.buf.length < head + 1 + size + 1) return;
      const body = this.buf.toString('utf8', head + 1, head + 1 + size);
      this.buf = this.buf.subarray(head + 1 + size + 1);
      this.waiting.shift();
      const links = type === 'commit' ? parseCommitLinks(body) : null;
      if (links && oid === next?.oid) {
        known.set(oid, links);
      }
      next?.resolve(oid === next?.oid ? links : null);
    }
  }

  private onExit(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    const err = new Error(this.stderr() || reason);
    for (const w of this.waiting.splice(0)) w.reject(err);
  }
}
