import { resolve, sep } from 'node:path';
import { DomainError } from '@cairn/contracts';

/** Owner and repository names that may reach the filesystem: Gitea's name alphabet, no dot-only or dot-git names. */
const SAFE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Where a repository lives on disk: `<REPO_ROOT>/<owner>/<name>.git`, lower-cased as Gitea does. The names are
 * checked again here (they are validated at creation too) and the result must stay inside the root, so no input can
 * point git at another directory.
 */
export function repoStoragePath(root: string, ownerName: string, repoName: string): string {
  for (const n of [ownerName, repoName]) {
    if (!SAFE_NAME.test(n) || n === '.' || n === '..' || n.toLowerCase().endsWith('.git')) {
      throw DomainError.invalid(`invalid owner or repository name "${n}"`);
    }
  }
  const base = resolve(root);
  const path = resolve(base, ownerName.toLowerCase(), `${repoName.toLowerCase()}.git`);
  if (!path.startsWith(base + sep)) throw DomainError.invalid('repository path escapes the storage root');
  return path;
}
