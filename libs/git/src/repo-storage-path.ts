import { resolve, sep } from 'node:path';
import { DomainError } from '@cairn/contracts';

/** Owner and repository names that may reach the filesystem: Gitea's name alphabet, no dot-only or dot-git names. */
const STORAGE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * Where a repository lives on disk: `<[repository] ROOT>/<owner>/<name>.git`, lower-cased as Gitea does (the one
 * home of this rule: repo-service and merge-check-worker both open repositories). The names are checked again here
 * (they are validated at creation too) and the result must stay inside the root, so nothing from a request or a
 * message can point git at another directory. Bad names are a `DomainError` (400).
 */
export function repoStoragePath(root: string, ownerName: string, repoName: string): string {
  for (const n of [ownerName, repoName]) {
    if (!STORAGE_NAME.test(n) || n === '.' || n === '..' || n.toLowerCase().endsWith('.git')) {
      throw DomainError.invalid(`invalid owner or repository name ${JSON.stringify(n).slice(0, 120)}`);
    }
  }
  const base = resolve(root);
  const path = resolve(base, ownerName.toLowerCase(), `${repoName.toLowerCase()}.git`);
  if (!path.startsWith(base + sep)) throw DomainError.invalid('repository path escapes the storage root');
  return path;
}
