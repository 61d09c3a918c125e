import type { RepoRefDto } from './repo-access.dto.js';

/** Worded as Gitea's `serv`; git over HTTP and SSH refuse the same way before any pack is sent. */
export function archivedPushRefusal(repo: Pick<RepoRefDto, 'ownerName' | 'name' | 'archived'>): string | null {
  return repo.archived ? `Repo: ${repo.ownerName}/${repo.name} is archived.` : null;
}
