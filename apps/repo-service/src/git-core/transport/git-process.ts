import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { Logger } from '@nestjs/common';
import { runAutoMaintenance, spawnGitService } from '@cairn/git';
import type { GitService } from './git-service-request.js';
import { PUSH_JOURNAL_ENV } from './push-log.js';
import type { JournalContext, OpenJournal, PushJournals } from './push-journal.js';
import type { PreReceiveChecks } from './pre-receive-checks.js';

/** Where the git transport keeps its hooks and push journals (prepared once at start). */
export interface GitTransportPaths {
  /** `core.hooksPath` for receive-pack: holds Cairn's `pre-receive` and `reference-transaction`. */
  hooksDir: string;
  /** The push journals (every receive-pack that may update refs writes one). */
  journals: PushJournals;
  /** The checks the `pre-receive` hook asks before refs move (branch protection); none: only the hook's own rules. */
  preReceive?: PreReceiveChecks;
}

export interface GitServiceRun {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited and its stdio closed. */
  finished: Promise<GitServiceResult>;
}

export interface GitServiceResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface GitServiceOptions {
  service: GitService;
  /** Absolute path of the bare repository (from `repoStoragePath`). */
  dir: string;
  /** HTTP: one request/response exchange per process. */
  statelessRpc: boolean;
  /** HTTP `info/refs`: only the ref advertisement. */
  advertiseRefs?: boolean;
  /** Validated `GIT_PROTOCOL` (e.g. `version=2`). */
  gitProtocol?: string;
  /** receive-pack that may update refs: the journal its hook writes to (opened by `startClientGitService`). */
  journal?: OpenJournal;
  /** More environment for receive-pack's hooks (the pre-receive checks' address and this push's key). */
  hookEnv?: Record<string, string>;
}

/**
 * Starts `git upload-pack` / `git receive-pack` on a repository with an argument vector (never a shell). The path is
 * absolute and comes after `--end-of-options`, so it can never be read as an option. receive-pack runs with Cairn's
 * hooks directory and, when it may update refs, the journal of this push (`PushJournals`): its hook journals every
 * ref update before git makes it, whatever else runs on the repository at the same time.
 */
export function startGitService(paths: GitTransportPaths, options: GitServiceOptions): GitServiceRun {
  // GIT_PROTOCOL (`version=2`) is what lets upload-pack speak protocol v2; receive-pack has no v2. Maintenance runs
  // after the push is recorded (runAutoMaintenance), never inside receive-pack.
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

/**
 * The one path of a client's upload-pack/receive-pack, HTTP and SSH alike: a receive-pack's journal is opened (and
 * synced) before git starts, so every ref update of the push is journaled before it happens; `finished` resolves
 * only once the push is recorded from the journal (and, after a clean exit, maintenance is started), so a finished
 * `git push` has its event in the outbox.
 */
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

/**
 * What receive-pack does after a push by itself (`receive.autogc`: `git maintenance run --auto`, packing objects
 * and refs when there are many), run once the push is recorded and without Cairn's hooks: run inside receive-pack,
 * its `pack-refs` would journal every packed ref into the push's journal, or — detached, after the journal was
 * removed — be refused by the hook. Not awaited; failures are logged.
 */
function maintainAfterPush(dir: string): void {
  void runAutoMaintenance(dir)
    .then((r) => {
      if (r.code !== 0) maintenanceLogger.warn(`git maintenance in ${dir} exited with ${r.code}: ${r.stderr}`);
    })
    .catch((err: Error) => maintenanceLogger.warn(`git maintenance in ${dir} failed: ${err.message}`));
}
