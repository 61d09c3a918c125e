import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnGit } from '@cairn/platform';
import type { GitService } from './git-service-request.js';
import { parsePushLog, PUSH_LOG_ENV, type RefUpdateLine } from './push-log.js';

/** Where the git transport keeps its hooks and per-push logs (prepared once at start). */
export interface GitTransportPaths {
  /** `core.hooksPath` for receive-pack: holds Cairn's `post-receive`. */
  hooksDir: string;
  /** A private directory for the per-process push logs. */
  pushLogDir: string;
}

export interface GitServiceRun {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process has exited and its stdio closed; for receive-pack, with the exact ref updates. */
  finished: Promise<GitServiceResult>;
}

export interface GitServiceResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The refs this receive-pack updated (empty for upload-pack and for pushes that changed nothing). */
  updates: RefUpdateLine[];
  /** Lines of the push log that did not parse (never expected; reported by the caller). */
  invalid: string[];
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
}

/**
 * Starts `git upload-pack` / `git receive-pack` on a repository with an argument vector (never a shell). The path is
 * absolute and comes after `--end-of-options`, so it can never be read as an option. receive-pack runs with Cairn's
 * hooks directory and a push-log file unique to this process: after it exits, the file holds exactly the ref updates
 * of this push, whatever else runs on the repository at the same time.
 */
export function startGitService(paths: GitTransportPaths, options: GitServiceOptions): GitServiceRun {
  const args: string[] = [];
  let pushLog: string | undefined;
  if (options.service === 'upload-pack') {
    // Partial clone support, as Gitea enables it.
    args.push('-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true', 'upload-pack', '--strict');
  } else {
    args.push('-c', `core.hooksPath=${paths.hooksDir}`, 'receive-pack');
    if (!options.advertiseRefs) pushLog = join(paths.pushLogDir, `${randomUUID()}.log`);
  }
  if (options.statelessRpc) args.push('--stateless-rpc');
  if (options.advertiseRefs) args.push('--advertise-refs');
  args.push('--end-of-options', options.dir);

  // No --git-dir: the repository is the operand. GIT_PROTOCOL (`version=2`) is what lets upload-pack speak protocol
  // v2; receive-pack has no v2.
  const child = spawnGit(null, args, {
    env: {
      GIT_PROTOCOL: options.service === 'upload-pack' ? options.gitProtocol : undefined,
      [PUSH_LOG_ENV]: pushLog,
    },
  });

  const finished = new Promise<GitServiceResult>((resolve) => {
    let spawnError = false;
    child.once('error', () => {
      spawnError = true;
    });
    child.once('close', (code, signal) => {
      void (async () => {
        let updates: RefUpdateLine[] = [];
        let invalid: string[] = [];
        if (pushLog) {
          const text = await readFile(pushLog, 'utf8').catch(() => '');
          await unlink(pushLog).catch(() => undefined);
          ({ updates, invalid } = parsePushLog(text));
        }
        resolve({ code: spawnError ? (code ?? 127) : code, signal, updates, invalid });
      })();
    });
  });
  return { child, finished };
}
