import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnGit } from './git-process.js';
import { assertOid } from './refs.js';

/** The caller pipes stdout and kills the process when its reader goes away. */

function streaming(repoPath: string, args: string[]): ChildProcessWithoutNullStreams {
  const child = spawnGit(repoPath, args);
  child.stdin.end();
  child.stderr.resume();
  return child;
}

/** A process of its own so a long read never holds the pool. */
export function spawnBlobReader(repoPath: string, oid: string): ChildProcessWithoutNullStreams {
  return streaming(repoPath, ['cat-file', 'blob', assertOid(oid)]);
}

/** Tar is gzipped by the caller. */
export function spawnArchive(repoPath: string, commit: string, format: 'zip' | 'tar', prefix: string): ChildProcessWithoutNullStreams {
  return streaming(repoPath, ['archive', `--format=${format}`, `--prefix=${prefix}/`, assertOid(commit)]);
}

export type GitService = 'upload-pack' | 'receive-pack';

export interface GitServiceSpawn {
  service: GitService;
  dir: string;
  statelessRpc: boolean;
  advertiseRefs?: boolean;
  /** The hooks that guard and journal ref updates. */
  hooksDir?: string;
  env?: Record<string, string | undefined>;
}

/** The path is the operand after `--end-of-options`, so it can never be read as an option; there is no `--git-dir`. */
export function spawnGitService(options: GitServiceSpawn): ChildProcessWithoutNullStreams {
  const args: string[] = [];
  if (options.service === 'upload-pack') {
    // Partial clone support, as Gitea enables it.
    args.push('-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true', 'upload-pack', '--strict');
  } else {
    if (!options.hooksDir) throw new Error('receive-pack runs only with Cairn\'s hooks');
    // Automatic maintenance would inherit the push's hooks and journal; the transport runs it after the push is
    // recorded.
    args.push('-c', `core.hooksPath=${options.hooksDir}`, '-c', 'receive.autogc=false', 'receive-pack');
  }
  if (options.statelessRpc) args.push('--stateless-rpc');
  if (options.advertiseRefs) args.push('--advertise-refs');
  args.push('--end-of-options', options.dir);
  return spawnGit(null, args, { env: options.env });
}
