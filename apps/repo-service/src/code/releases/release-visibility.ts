import { accessAtLeast, type RepoScopedRequest } from '@cairn/contracts';

/** Drafts (and their attachments) are seen by writers (and site admins) only, as Gitea's `IncludeDrafts`. */
export function seesDrafts(req: RepoScopedRequest): boolean {
  return accessAtLeast(req.access, 'write') || !!req.actor?.isAdmin;
}
