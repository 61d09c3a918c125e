import { Worker } from 'node:worker_threads';

export const DIGEST_ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

/** Evaluated, so the same code runs from `src/` under vitest and from `dist/`; every message is answered, in order. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const sessions = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'update') {
    let hash = sessions.get(m.session);
    if (!hash) sessions.set(m.session, (hash = createHash(workerData.algorithm)));
    hash.update(new Uint8Array(m.memory, 0, m.length));
    parentPort.postMessage(null);
  } else if (m.op === 'digest') {
    const hash = sessions.get(m.session) ?? createHash(workerData.algorithm);
    sessions.delete(m.session);
    parentPort.postMessage(hash.digest('hex'));
  } else {
    sessions.delete(m.session);
    parentPort.postMessage(null);
  }
});
`;

type Message =
  | { op: 'update'; session: number; memory: SharedArrayBuffer; length: number }
  | { op: 'digest' | 'drop'; session: number };

/** Answers come back in order, so pending calls are a FIFO queue. */
class HashWorker {
  private readonly worker: Worker;
  private readonly pending: Array<{ resolve: (v: string | null) => void; reject: (e: Error) => void }> = [];
  private failure: Error | null = null;

  constructor(algorithm: DigestAlgorithm) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { algorithm } });
    this.worker.on('message', (answer: string | null) => {
      this.pending.shift()?.resolve(answer);
      if (this.pending.length === 0) this.worker.unref();
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const call of this.pending.splice(0)) call.reject(err);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`${algorithm} hashing thread exited (code ${code})`)));
    // Referenced only while a call is pending, so an idle pool never keeps the process alive (listeners ref it
    // again).
    this.worker.unref();
  }

  get alive(): boolean {
    return this.failure === null;
  }

  call(message: Message): Promise<string | null> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) this.worker.ref();
      this.pending.push({ resolve, reject });
      this.worker.postMessage(message);
    });
  }
}

let pool: Record<DigestAlgorithm, HashWorker> | null = null;
let nextSession = 1;

function workers(): Record<DigestAlgorithm, HashWorker> {
  if (!pool || DIGEST_ALGORITHMS.some((a) => !pool![a].alive)) {
    pool = Object.fromEntries(DIGEST_ALGORITHMS.map((a) => [a, new HashWorker(a)])) as Record<DigestAlgorithm, HashWorker>;
  }
  return pool;
}

/** `update` resolves once every thread consumed its shared memory: the caller's reuse of it is the back-pressure. */
export class ParallelDigests {
  private readonly session = nextSession++;
  private readonly threads = workers();

  async update(memory: SharedArrayBuffer, length: number): Promise<void> {
    await Promise.all(DIGEST_ALGORITHMS.map((a) => this.threads[a].call({ op: 'update', session: this.session, memory, length })));
  }

  async digests(): Promise<Record<DigestAlgorithm, string>> {
    const hex = await Promise.all(DIGEST_ALGORITHMS.map((a) => this.threads[a].call({ op: 'digest', session: this.session })));
    return Object.fromEntries(DIGEST_ALGORITHMS.map((a, i) => [a, hex[i]!])) as Record<DigestAlgorithm, string>;
  }

  drop(): void {
    for (const a of DIGEST_ALGORITHMS) this.threads[a].call({ op: 'drop', session: this.session }).catch(() => undefined);
  }
}
