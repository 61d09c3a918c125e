import { resolve, sep } from 'node:path';
import { DomainError } from '@cairn/contracts';

/** Owner and repository names that may reach the filesystem: Gitea's name alphabet, no dot-only or dot-git names. */
const STORAGE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** Lower-cased as Gitea does; names are checked again and the result must stay inside the root, so no message can point git elsewhere. */
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
