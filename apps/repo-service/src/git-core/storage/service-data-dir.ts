import { dirname, resolve } from 'node:path';

/**
 * The directory beside the repository root where repo-service keeps its own files (SSH host key, git hooks, release
 * attachments).
 */
export function serviceDataDir(repoRoot: string): string {
  return dirname(resolve(repoRoot));
}
