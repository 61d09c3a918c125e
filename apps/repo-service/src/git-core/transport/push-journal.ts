import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { isZeroId } from '@cairn/contracts';
import { listRefs } from '@cairn/git';
import { JOURNAL_REFS_FILE, journalOutcome, parseJournal, type RefUpdateLine } from './push-log.js';
import type { PushContext, PushSink } from './push-sink.js';

/** The journal's id completes it into a {@link PushContext}. */
export type JournalContext = Omit<PushContext, 'journalId'>;

export interface OpenJournal {
  id: string;
  /** What `CAIRN_PUSH_JOURNAL` names for the hook. */
  path: string;
  context: JournalContext;
}

export interface PushJournalTiming {
  /** Untouched this long, it belongs to nobody alive: any instance replays it. */
  quietMs: number;
  /** And first at start. */
  replayEveryMs: number;
  /** Must be well below `quietMs`. */
  touchEveryMs: number;
}

export const DEFAULT_JOURNAL_TIMING: PushJournalTiming = { quietMs: 10_000, replayEveryMs: 5_000, touchEveryMs: 2_000 };

const CONTEXT_FILE = 'context.json';
const PID_FILE = 'pid';
const ENTRY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.([0-9a-f]{32}))?$/;

// One directory per receive-pack (context synced before git starts). If the instance dies before recording, any
// instance replays it once quiet, claiming it by rename; the recorder marks the id in the events' transaction.
export class PushJournals {
  private readonly logger = new Logger('PushJournal');
  /** Receive-pack running, or being recorded. */
  private readonly active = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private replaying: Promise<void> | null = null;
  private stopped = false;

  constructor(
    readonly root: string,
    private readonly sink: PushSink,
    private readonly timing: PushJournalTiming = DEFAULT_JOURNAL_TIMING,
  ) {}

  async start(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    const touch = setInterval(() => void this.touchActive(), this.timing.touchEveryMs);
    const replay = setInterval(() => void this.replayQuiet(), this.timing.replayEveryMs);
    touch.unref();
    replay.unref();
    this.timers = [touch, replay];
    void this.replayQuiet();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.replaying;
  }

  /** Its context is on disk (synced) when this resolves. */
  async open(context: JournalContext): Promise<OpenJournal> {
    const id = randomUUID();
    const path = join(this.root, id);
    // Marked before the folder exists: a replay pass listing the root meanwhile must skip it, not claim it.
    this.active.add(path);
    try {
      await mkdir(path, { mode: 0o700 });
    } catch (err) {
      this.active.delete(path);
      throw err;
    }
    const file = await open(join(path, CONTEXT_FILE), 'w', 0o600);
    try {
      await file.writeFile(JSON.stringify(context));
      await file.sync();
    } finally {
      await file.close();
    }
    return { id, path, context };
  }

  /** Noted right after spawn; it tells receive-pack's journal lines from its maintenance's. */
  notePid(journal: OpenJournal, pid: number | undefined): void {
    if (pid === undefined) return;
    try {
      writeFileSync(join(journal.path, PID_FILE), String(pid), { mode: 0o600 });
    } catch (err) {
      this.logger.warn(`journal ${journal.id}: could not note the pid: ${(err as Error).message}`);
    }
  }

  /** On failure the journal stays for a replay; logged, not thrown. */
  async complete(journal: OpenJournal): Promise<void> {
    try {
      await this.record(journal.id, journal.path, journal.context);
    } catch (err) {
      this.logger.error(`recording push ${journal.id} to repository ${journal.context.repoId} failed, it will be replayed: ${(err as Error).message}`);
    } finally {
      this.active.delete(journal.path);
    }
  }

  replayQuiet(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.replaying ??= this.replayPass().finally(() => {
      this.replaying = null;
    });
    return this.replaying;
  }

  private async replayPass(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (err) {
      this.logger.warn(`reading the push journal failed: ${(err as Error).message}`);
      return;
    }
    for (const name of names) {
      if (this.stopped) return;
      const m = ENTRY.exec(name);
      const path = join(this.root, name);
      if (!m || this.active.has(path)) continue;
      try {
        if (!(await this.isQuiet(path))) continue;
        const claimed = join(this.root, `${m[1]}.${randomUUID().replaceAll('-', '')}`);
        // Of several replaying instances exactly one rename succeeds.
        if (!(await rename(path, claimed).then(() => true, () => false))) continue;
        this.active.add(claimed);
        try {
          const now = new Date();
          await utimes(claimed, now, now);
          const context = await readContext(claimed);
          if (!context) {
            await this.setAside(m[1], claimed);
            continue;
          }
          this.logger.warn(`replaying push ${m[1]} to repository ${context.repoId}, left unrecorded`);
          await this.record(m[1], claimed, context);
        } finally {
          this.active.delete(claimed);
        }
      } catch (err) {
        this.logger.error(`replaying push journal ${name} failed: ${(err as Error).message}`);
      }
    }
  }

  /** Receive-pack never started (context is synced first): removed when empty, else renamed aside for an operator. */
  private async setAside(id: string, path: string): Promise<void> {
    const refs = await stat(join(path, JOURNAL_REFS_FILE)).catch(() => null);
    if (!refs) {
      await rm(path, { recursive: true, force: true });
      return;
    }
    const aside = join(this.root, `${id}.unreadable`);
    await rename(path, aside);
    this.logger.error(`push journal ${id} has ref updates but no readable context: kept as ${aside}`);
  }

  private async isQuiet(path: string): Promise<boolean> {
    const dir = await stat(path);
    const refs = await stat(join(path, JOURNAL_REFS_FILE)).catch(() => null);
    const last = Math.max(dir.mtimeMs, dir.ctimeMs, refs?.mtimeMs ?? 0);
    return Date.now() - last >= this.timing.quietMs;
  }

  private async touchActive(): Promise<void> {
    const now = new Date();
    for (const path of this.active) await utimes(path, now, now).catch(() => undefined);
  }

  private async record(id: string, path: string, context: JournalContext): Promise<void> {
    const text = await readFile(join(path, JOURNAL_REFS_FILE), 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return ''; // no ref was ever about to move
      throw err;
    });
    const pidText = await readFile(join(path, PID_FILE), 'utf8').catch(() => '');
    const { records, invalid } = parseJournal(text);
    if (invalid.length) this.logger.error(`push journal ${id}: unparsable lines ${JSON.stringify(invalid.slice(0, 5))}`);
    const outcome = journalOutcome(records, /^\d+$/.test(pidText) ? Number(pidText) : null);
    const settled = outcome.unsettled.length ? await settle(context.dir, outcome.unsettled) : [];
    const updates = [...outcome.committed, ...settled];
    if (updates.length) await this.sink({ ...context, journalId: id }, updates);
    await rm(path, { recursive: true, force: true });
  }
}

async function readContext(path: string): Promise<JournalContext | null> {
  try {
    const c = JSON.parse(await readFile(join(path, CONTEXT_FILE), 'utf8')) as JournalContext;
    return Number.isSafeInteger(c.repoId) && typeof c.dir === 'string' && (c.via === 'http' || c.via === 'ssh') ? c : null;
  } catch {
    return null;
  }
}

/** Git died between locking and reporting: an update happened exactly when the ref is now where it took it. */
export async function settle(dir: string, unsettled: RefUpdateLine[]): Promise<RefUpdateLine[]> {
  const refs = await listRefs(dir, { patterns: unsettled.map((u) => u.ref) });
  const current = new Map(refs.map((r) => [r.ref, r.oid]));
  return unsettled.filter((u) => (isZeroId(u.new) ? !current.has(u.ref) : current.get(u.ref) === u.new));
}
