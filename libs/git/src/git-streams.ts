import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnGit } from './git-process.js';
import { assertOid } from './refs.js';

/**
 * git processes whose stdout a caller streams (a blob, an archive, a client's pack exchange). Stdin is the caller's
 * (closed here where git reads nothing); the caller pipes stdout and kills the process when its reader goes away.
 */

function streaming(repoPath: string, args: string[]): ChildProcessWithoutNullStreams {
  const child = spawnGit(repoPath, args);
  child.stdin.end();
  child.stderr.resume();
  return child;
}

/** `git cat-file blob <oid>`: the blob's bytes, from a process of its own so a long read never holds the pool. */
export function spawnBlobReader(repoPath: string, oid: string): ChildProcessWithoutNullStreams {
  return streaming(repoPath, ['cat-file', 'blob', assertOid(oid)]);
}

/** `git archive` of a commit's tree, every path under `<prefix>/` (tar is gzipped by the caller). */
export function spawnArchive(repoPath: string, commit: string, format: 'zip' | 'tar', prefix: string): ChildProcessWithoutNullStreams {
  return streaming(repoPath, ['archive', `--format=${format}`, `--prefix=${prefix}/`, assertOid(commit)]);
}

/** The two git services a client talks to (over HTTP and SSH). */
export type GitService = 'upload-pack' | 'receive-pack';

export interface GitServiceSpawn {
  service: GitService;
  /** Absolute path of the bare repository. */
  dir: string;
  /** HTTP: one request/response exchange per process. */
  statelessRpc: boolean;
  /** HTTP `info/refs`: only the ref advertisement. */
  advertiseRefs?: boolean;
  /** receive-pack: `core.hooksPath`, the hooks that guard and journal ref updates. */
  hooksDir?: string;
  /** Added to the git environment (`GIT_PROTOCOL`, the hooks' variables). */
  env?: Record<string, string | undefined>;
}

/**
 * Starts `git upload-pack` / `git receive-pack` for a client. The path is the operand after `--end-of-options`, so
 * it can never be read as an option; there is no `--git-dir`.
 */
export function spawnGitService(options: GitServiceSpawn): ChildProcessWithoutNullStreams {
  const args: string[] = [];
  if (options.service === 'upload-pack') {
    // Partial clone support, as Gitea enables it.
    args.push('-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true', 'upload-pack', '--strict');
  } else {
    if (!options.hooksDir) throw new Error('receive-pack runs only with Cairn\'s hooks');
    // No automatic maintenance inside receive-pack: it would inherit the hooks and journal of the push; the
    // transport runs it after the push is recorded.
    args.push('-c', `core.hooksPath=${options.hooksDir}`, '-c', 'receive.autogc=false', 'receive-pack');
  }
  if (options.statelessRpc) args.push('--stateless-rpc');
  if (options.advertiseRefs) args.push('--advertise-refs');
  args.push('--end-of-options', options.dir);
  return spawnGit(null, args, { env: options.env });
}
