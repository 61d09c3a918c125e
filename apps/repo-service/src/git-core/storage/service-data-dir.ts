import { dirname, resolve } from 'node:path';

/** Beside the repository root: repo-service's own files (SSH host key, git hooks, release attachments). */
export function serviceDataDir(repoRoot: string): string {
  return dirname(resolve(repoRoot));
}
