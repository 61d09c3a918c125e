import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isAbsolute, relative, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { listenOn } from '@cairn/platform';
import { PRE_RECEIVE_ENV } from './push-log.js';
import type { JournalContext } from './push-journal.js';
import type { RefUpdateLine } from './push-log.js';

export interface PreReceiveInput {
  context: JournalContext;
  env: Record<string, string | undefined>;
  updates: RefUpdateLine[];
}

/** Decides a push before git updates its refs: the messages refusing it, empty when it may go ahead. */
export type PreReceiveCheck = (input: PreReceiveInput) => Promise<string[]>;

/** Whether a push to this repository needs the check at all (no rules: the hook need not start Node.js). */
export type PreReceiveApplies = (context: JournalContext) => Promise<boolean>;

/** The largest request the check script sends (a push of many refs). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

// Called by the `pre-receive` hook's script on loopback with a random one-time key per receive-pack: the key is all
// the script can name, so who pushes where always comes from this process.
export class PreReceiveChecks {
  private readonly logger = new Logger('PreReceiveChecks');
  private readonly server: Server;
  private readonly pushes = new Map<string, JournalContext>();
  private url: string | null = null;

  constructor(
    private readonly check: PreReceiveCheck,
    private readonly applies: PreReceiveApplies = () => Promise.resolve(true),
  ) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.logger.error(`pre-receive check failed: ${(err as Error).message}`);
        reply(res, 500, { ok: false, messages: ['this push could not be checked; please try again'] });
      });
    });
  }

  async listen(): Promise<void> {
    const port = await listenOn(this.server, 0, '127.0.0.1');
    this.url = `http://127.0.0.1:${port}/`;
  }

  async close(): Promise<void> {
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  /** A repository without rules gets no key, so a rule added during such a push applies from the next push on. */
  async register(context: JournalContext): Promise<{ env: Record<string, string>; release: () => void }> {
    // When that cannot be told (the database did not answer), the push is checked, and the check says why it fails.
    if (!this.url || !(await this.applies(context).catch(() => true))) return { env: {}, release: () => undefined };
    const key = randomUUID();
    this.pushes.set(key, context);
    return {
      env: { [PRE_RECEIVE_ENV.url]: this.url, [PRE_RECEIVE_ENV.key]: key, [PRE_RECEIVE_ENV.node]: process.execPath },
      release: () => this.pushes.delete(key),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return reply(res, 405, { ok: false, messages: ['method not allowed'] });
    const body = await readJson(req);
    const context = typeof body?.key === 'string' ? this.pushes.get(body.key) : undefined;
    if (!body || !context) return reply(res, 403, { ok: false, messages: ['this push is not known to the server'] });
    const updates = Array.isArray(body.updates) ? (body.updates as RefUpdateLine[]) : [];
    const env = quarantineEnv(context.dir, body);
    if (!env) return reply(res, 400, { ok: false, messages: ['invalid object directories'] });
    const messages = await this.check({ context, env, updates });
    reply(res, 200, { ok: messages.length === 0, messages });
  }
}

/** git's object-directory variables, accepted only inside the repository (its quarantine); null otherwise. */
function quarantineEnv(dir: string, body: Record<string, unknown>): Record<string, string | undefined> | null {
  const inside = (p: unknown): p is string => {
    if (typeof p !== 'string' || !isAbsolute(p)) return false;
    const rel = relative(resolve(dir), resolve(p));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  const env: Record<string, string | undefined> = {};
  const fields = [
    ['GIT_OBJECT_DIRECTORY', body.objectDirectory],
    ['GIT_QUARANTINE_PATH', body.quarantinePath],
  ] as const;
  for (const [name, value] of fields) {
    if (value === null || value === undefined) continue;
    if (!inside(value)) return null;
    env[name] = value;
  }
  const alternates = body.alternateObjectDirectories;
  if (typeof alternates === 'string' && alternates) {
    if (!alternates.split(':').every(inside)) return null;
    env.GIT_ALTERNATE_OBJECT_DIRECTORIES = alternates;
  }
  return env;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function reply(res: ServerResponse, status: number, body: { ok: boolean; messages: string[] }): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
