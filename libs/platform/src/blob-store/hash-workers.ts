import { Worker } from 'node:worker_threads';

/** The four digests Gitea keeps of every blob. */
export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

/**
 * Two threads, paired to hash at about the same speed (one core: sha1+sha512 ≈ 200 MiB/s, md5+sha256 ≈ 260 MiB/s).
 * A thread costs ~12 MiB of RSS; one per digest would lift one upload's ceiling only to sha512's own ≈ 240 MiB/s.
 */
const THREADS: readonly (readonly DigestAlgorithm[])[] = [['sha1', 'sha512'], ['md5', 'sha256']];

/** Hashing needs almost no JavaScript heap; V8's defaults would reserve far more per thread. */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, codeRangeSizeMb: 4 };

/** Evaluated, so the same code runs from `src/` under vitest and from `dist/`; every message is answered, in order. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const sessions = new Map();
const start = () => workerData.algorithms.map((a) => createHash(a));
parentPort.on('message', (m) => {
  if (m.op === 'update') {
    let hashes = sessions.get(m.session);
    if (!hashes) sessions.set(m.session, (hashes = start()));
    const view = new Uint8Array(m.memory, 0, m.length);
    for (const hash of hashes) hash.update(view);
    parentPort.postMessage(null);
  } else if (m.op === 'digest') {
    const hashes = sessions.get(m.session) ?? start();
    sessions.delete(m.session);
    parentPort.postMessage(hashes.map((hash) => hash.digest('hex')));
  } else {
    sessions.delete(m.session);
    parentPort.postMessage(null);
  }
});
`;

type Message =
  | { op: 'update'; session: number; memory: SharedArrayBuffer; length: number }
  | { op: 'digest' | 'drop'; session: number };

type Answer = string[] | null;

/** Answers come back in order, so pending calls are a FIFO queue. */
class HashWorker {
  private readonly worker: Worker;
  private readonly pending: Array<{ resolve: (v: Answer) => void; reject: (e: Error) => void }> = [];
  private failure: Error | null = null;

  constructor(readonly algorithms: readonly DigestAlgorithm[]) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { algorithms }, resourceLimits: THREAD_LIMITS });
    this.worker.on('message', (answer: Answer) => {
      this.pending.shift()?.resolve(answer);
      if (this.pending.length === 0) this.worker.unref();
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const call of this.pending.splice(0)) call.reject(err);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`${algorithms.join('/')} hashing thread exited (code ${code})`)));
    // Referenced only while a call is pending, so an idle pool never keeps the process alive (listeners ref it
    // again).
    this.worker.unref();
  }

  get alive(): boolean {
    return this.failure === null;
  }

  call(message: Message): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) this.worker.ref();
      this.pending.push({ resolve, reject });
      this.worker.postMessage(message);
    });
  }
}

/** The process's hashing threads, started on first use (and again if one died). */
let pool: HashWorker[] | null = null;
let nextSession = 1;

function workers(): HashWorker[] {
  if (!pool || pool.some((w) => !w.alive)) pool = THREADS.map((algorithms) => new HashWorker(algorithms));
  return pool;
}

/**
 * The four digests of one stream, computed off the main thread. `update` resolves once every thread has consumed the
 * shared memory it was given, so the caller's reuse of that memory is the back-pressure.
 */
export class ParallelDigests {
  private readonly session = nextSession++;
  private readonly threads = workers();

  async update(memory: SharedArrayBuffer, length: number): Promise<void> {
    await Promise.all(this.threads.map((t) => t.call({ op: 'update', session: this.session, memory, length })));
  }

  async digests(): Promise<Record<DigestAlgorithm, string>> {
    const answers = await Promise.all(this.threads.map((t) => t.call({ op: 'digest', session: this.session })));
    const digests: Partial<Record<DigestAlgorithm, string>> = {};
    this.threads.forEach((t, i) => t.algorithms.forEach((a, j) => (digests[a] = answers[i]![j])));
    return digests as Record<DigestAlgorithm, string>;
  }

  drop(): void {
    for (const t of this.threads) t.call({ op: 'drop', session: this.session }).catch(() => undefined);
  }
}
