import type { RepoRefDto } from './repo-access.dto.js';

/**
 * Why a push to this repository is refused for being archived (null: it is not), worded as Gitea's `serv` says it.
 * Shared by git over HTTP (gateway) and SSH (repo-service), so both refuse the same way before any pack is sent.
 */
export function archivedPushRefusal(repo: Pick<RepoRefDto, 'ownerName' | 'name' | 'archived'>): string | null {
  return repo.archived ? `Repo: ${repo.ownerName}/${repo.name} is archived.` : null;
}
