import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Logger } from '@nestjs/common';
import { runAutoMaintenance, spawnGitService } from '@cairn/git';
import type { GitService } from './git-service-request.js';
import { PUSH_JOURNAL_ENV } from './push-log.js';
import type { JournalContext, OpenJournal, PushJournals } from './push-journal.js';
import type { PreReceiveChecks } from './pre-receive-checks.js';

export interface GitTransportPaths {
  /** Holds Cairn's `pre-receive` and `reference-transaction`. */
  hooksDir: string;
  journals: PushJournals;
  /** None: only the hook's own rules. */
  preReceive?: PreReceiveChecks;
}

export interface GitServiceRun {
  child: ChildProcessWithoutNullStreams;
  /** Exited and stdio closed. */
  finished: Promise<GitServiceResult>;
}

export interface GitServiceResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface GitServiceOptions {
  service: GitService;
  /** From `repoStoragePath`. */
  dir: string;
  statelessRpc: boolean;
  advertiseRefs?: boolean;
  gitProtocol?: string;
  journal?: OpenJournal;
  /** The pre-receive checks' address and this push's key. */
  hookEnv?: Record<string, string>;
}

/** The path follows `--end-of-options`; receive-pack's hook journals every ref update before git makes it. */
export function startGitService(paths: GitTransportPaths, options: GitServiceOptions): GitServiceRun {
  // GIT_PROTOCOL lets upload-pack speak v2 (receive-pack has none); maintenance runs after the push is recorded.
  const child = spawnGitService({
    service: options.service,
    dir: options.dir,
    statelessRpc: options.statelessRpc,
    advertiseRefs: options.advertiseRefs,
    hooksDir: paths.hooksDir,
    env: {
      GIT_PROTOCOL: options.service === 'upload-pack' ? options.gitProtocol : undefined,
      [PUSH_JOURNAL_ENV]: options.service === 'receive-pack' ? options.journal?.path : undefined,
      ...(options.service === 'receive-pack' ? options.hookEnv : undefined),
    },
  });
  if (options.journal) paths.journals.notePid(options.journal, child.pid);

  const finished = new Promise<GitServiceResult>((resolve) => {
    let spawnError = false;
    child.once('error', () => {
      spawnError = true;
    });
    child.once('close', (code, signal) => {
      resolve({ code: spawnError ? (code ?? 127) : code, signal });
    });
  });
  return { child, finished };
}

/** The journal is synced before git starts; `finished` resolves once the push is recorded (its event in the outbox). */
export async function startClientGitService(
  paths: GitTransportPaths,
  options: Omit<GitServiceOptions, 'journal' | 'advertiseRefs'>,
  pusher: JournalContext,
): Promise<GitServiceRun> {
  if (options.service !== 'receive-pack') return startGitService(paths, options);
  const journal = await paths.journals.open(pusher);
  const checks = await paths.preReceive?.register(pusher);
  const run = startGitService(paths, { ...options, journal, hookEnv: checks?.env });
  const finished = run.finished.then(async (result) => {
    checks?.release();
    await paths.journals.complete(journal);
    if (result.code === 0) maintainAfterPush(options.dir);
    return result;
  });
  return { child: run.child, finished };
}

const maintenanceLogger = new Logger('GitMaintenance');

/** After recording, without Cairn's hooks: inside receive-pack `pack-refs` would journal every packed ref. */
function maintainAfterPush(dir: string): void {
  void runAutoMaintenance(dir)
    .then((r) => {
      if (r.code !== 0) maintenanceLogger.warn(`git maintenance in ${dir} exited with ${r.code}: ${r.stderr}`);
    })
    .catch((err: Error) => maintenanceLogger.warn(`git maintenance in ${dir} failed: ${err.message}`));
}
