import { existsSync } from 'node:fs';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { DomainError, isObjectId } from '@cairn/contracts';
import { spawnGit } from './git-process.js';

export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface CatFileCommand {
  op: 'info' | 'contents';
  /** Callers build names from validated refs, ids and tree paths. */
  object: string;
}

/** `null` when git answers `missing` or `ambiguous`. */
export interface CatFileObject {
  oid: string;
  type: GitObjectType;
  size: number;
  data?: Buffer;
}

/** The process died mid-answer; it is replaced and the request retried once. */
export class CatFileCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatFileCrashError';
  }
}

const FOUND = /^(\S+) (blob|tree|commit|tag) (\d+)$/;

interface Pending {
  commands: CatFileCommand[];
  answers: (CatFileObject | null)[];
  resolve: (answers: (CatFileObject | null)[]) => void;
  reject: (err: Error) => void;
}

/** Commands are pipelined (30 lookups, one round trip); bodies go straight into a buffer of the announced size. */
export class CatFileProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private alive = true;
  private stderr = '';
  private header: Buffer[] = [];
  private body: Buffer | null = null;
  private bodyFilled = 0;
  private awaitingLf = false;
  private current: CatFileObject | null = null;

  constructor(
    readonly repoPath: string,
    private readonly onGone: (p: CatFileProcess) => void,
  ) {
    this.child = spawnGit(repoPath, ['cat-file', '--batch-command']);
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (b: Buffer) => {
      if (this.stderr.length < 2048) this.stderr += b.toString('utf8');
    });
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (err) => this.fail(`cat-file could not run: ${err.message}`));
    this.child.on('close', (code, signal) => this.fail(`cat-file exited (${code ?? signal}): ${this.stderr.trim()}`));
  }

  get isAlive(): boolean {
    return this.alive;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(commands: CatFileCommand[]): Promise<(CatFileObject | null)[]> {
    if (!this.alive) return Promise.reject(new CatFileCrashError('cat-file process is gone'));
    if (commands.length === 0) return Promise.resolve([]);
    let text = '';
    for (const c of commands) {
      // A name with a line break or NUL would desynchronise the protocol.
      if (/[\n\r\0]/.test(c.object)) throw new Error('object name contains a line break or NUL');
      text += `${c.op} ${c.object}\n`;
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ commands, answers: [], resolve, reject });
      this.child.stdin.write(text);
    });
  }

  close(): void {
    if (!this.alive) return;
    this.child.stdin.end();
    this.child.kill('SIGTERM');
  }

  private fail(reason: string): void {
    if (!this.alive) return;
    this.alive = false;
    const err = new CatFileCrashError(reason);
    for (const p of this.queue.splice(0)) p.reject(err);
    this.onGone(this);
  }

  private protocolError(what: string): void {
    this.fail(`cat-file protocol error: ${what}`);
    this.child.kill('SIGKILL');
  }

  private answer(value: CatFileObject | null): void {
    const p = this.queue[0];
    if (!p) return this.protocolError('output without a request');
    p.answers.push(value);
    if (p.answers.length === p.commands.length) {
      this.queue.shift();
      p.resolve(p.answers);
    }
  }

  private currentOp(): 'info' | 'contents' | undefined {
    const p = this.queue[0];
    return p?.commands[p.answers.length]?.op;
  }

  private onData(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length && this.alive) {
      if (this.body) {
        const n = Math.min(this.body.length - this.bodyFilled, chunk.length - pos);
        chunk.copy(this.body, this.bodyFilled, pos, pos + n);
        this.bodyFilled += n;
        pos += n;
        if (this.bodyFilled === this.body.length) {
          this.awaitingLf = true;
          this.current!.data = this.body;
          this.body = null;
        }
        continue;
      }
      if (this.awaitingLf) {
        if (chunk[pos] !== 0x0a) return this.protocolError('missing newline after object body');
        pos += 1;
        this.awaitingLf = false;
        const done = this.current!;
        this.current = null;
        this.answer(done);
        continue;
      }
      const nl = chunk.indexOf(0x0a, pos);
      if (nl < 0) {
        this.header.push(chunk.subarray(pos));
        return;
      }
      this.header.push(chunk.subarray(pos, nl));
      pos = nl + 1;
      const line = Buffer.concat(this.header).toString('utf8');
      this.header = [];
      this.onHeader(line);
    }
  }

  private onHeader(line: string): void {
    const op = this.currentOp();
    if (!op) return this.protocolError('output without a request');
    const m = FOUND.exec(line);
    if (!m || !isObjectId(m[1])) {
      if (line.endsWith(' missing') || line.endsWith(' ambiguous')) return this.answer(null);
      return this.protocolError(`unexpected line ${JSON.stringify(line.slice(0, 80))}`);
    }
    const found: CatFileObject = { oid: m[1], type: m[2] as GitObjectType, size: Number(m[3]) };
    if (op === 'info') return this.answer(found);
    this.current = found;
    if (found.size === 0) {
      found.data = Buffer.alloc(0);
      this.awaitingLf = true;
      return;
    }
    this.body = Buffer.allocUnsafe(found.size);
    this.bodyFilled = 0;
  }
}

export interface CatFilePoolOptions {
  maxProcesses: number;
  idleTimeoutMs: number;
  onRetry?: (reason: string) => void;
}

interface PoolEntry {
  proc: CatFileProcess;
  inFlight: number;
  idleTimer: NodeJS.Timeout | null;
}

/** LRU-capped and idle-timed; a dead process's request is retried once (reads are idempotent). */
export class CatFilePool {
  /** Map order is recency. */
  private readonly entries = new Map<string, PoolEntry>();
  private readonly waiters: (() => void)[] = [];
  private closed = false;
  spawned = 0;

  constructor(readonly options: CatFilePoolOptions) {}

  get size(): number {
    return this.entries.size;
  }

  pidOf(repoPath: string): number | undefined {
    return this.entries.get(repoPath)?.proc.pid;
  }

  async run(repoPath: string, commands: CatFileCommand[]): Promise<(CatFileObject | null)[]> {
    for (let attempt = 0; ; attempt++) {
      const entry = await this.acquire(repoPath);
      try {
        return await entry.proc.send(commands);
      } catch (err) {
        if (err instanceof CatFileCrashError && attempt === 0 && !this.closed) {
          this.options.onRetry?.(`cat-file for a repository died (${err.message}); retrying once on a new process`);
          continue;
        }
        throw err;
      } finally {
        this.release(repoPath, entry);
      }
    }
  }

  async one(repoPath: string, command: CatFileCommand): Promise<CatFileObject | null> {
    return (await this.run(repoPath, [command]))[0];
  }

  close(): void {
    this.closed = true;
    for (const [, e] of this.entries) {
      if (e.idleTimer) clearTimeout(e.idleTimer);
      e.proc.close();
    }
    this.entries.clear();
    for (const w of this.waiters.splice(0)) w();
  }

  private async acquire(repoPath: string): Promise<PoolEntry> {
    for (;;) {
      if (this.closed) throw new CatFileCrashError('the cat-file pool is closed');
      let entry = this.entries.get(repoPath);
      if (entry && !entry.proc.isAlive) {
        this.entries.delete(repoPath);
        entry = undefined;
      }
      if (!entry && this.entries.size >= this.options.maxProcesses) {
        const idle = [...this.entries.entries()].find(([, e]) => e.inFlight === 0);
        if (!idle) {
          await new Promise<void>((resolve) => this.waiters.push(resolve));
          continue;
        }
        this.evict(idle[0], idle[1]);
      }
      if (!entry) {
        if (!existsSync(repoPath)) throw DomainError.notFound('repository storage not found');
        const created: PoolEntry = {
          proc: new CatFileProcess(repoPath, (p) => this.onGone(repoPath, p)),
          inFlight: 0,
          idleTimer: null,
        };
        this.spawned += 1;
        entry = created;
      }
      this.entries.delete(repoPath);
      this.entries.set(repoPath, entry);
      entry.inFlight += 1;
      if (entry.idleTimer) {
        clearTimeout(entry.idleTimer);
        entry.idleTimer = null;
      }
      return entry;
    }
  }

  private release(repoPath: string, entry: PoolEntry): void {
    entry.inFlight -= 1;
    if (entry.inFlight > 0) return;
    if (this.entries.get(repoPath) === entry && entry.proc.isAlive) {
      entry.idleTimer = setTimeout(() => {
        if (entry.inFlight === 0 && this.entries.get(repoPath) === entry) this.evict(repoPath, entry);
      }, this.options.idleTimeoutMs);
      entry.idleTimer.unref();
    }
    this.wakeWaiters();
  }

  /** Every waiter re-checks: a slot may be free for some and not for others. */
  private wakeWaiters(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private evict(repoPath: string, entry: PoolEntry): void {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    this.entries.delete(repoPath);
    entry.proc.close();
  }

  private onGone(repoPath: string, proc: CatFileProcess): void {
    const entry = this.entries.get(repoPath);
    if (entry?.proc === proc) {
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      this.entries.delete(repoPath);
      this.wakeWaiters();
    }
  }
}
