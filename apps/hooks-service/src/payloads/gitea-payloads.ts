import {
  isZeroId, repoUrls, type PushedCommit, type RefUpdate, type RepoEventRepository, type RepoUrls, type UserDto,
} from '@cairn/contracts';

/** Gitea's `Repository` JSON of an event (what repo-service sent), or a minimal one built from the ids and names. */
export function repositoryJson(repo: RepoEventRepository, rootUrl: string): Record<string, unknown> {
  if (repo.json && Object.keys(repo.json).length) return repo.json;
  const links = repoUrls(rootUrl, repo);
  return {
    id: repo.id,
    owner: { id: repo.ownerId, login: repo.ownerName, username: repo.ownerName },
    name: repo.name,
    full_name: repo.fullName || `${repo.ownerName}/${repo.name}`,
    private: repo.private,
    html_url: links.html,
    url: links.api,
    clone_url: links.clone,
    default_branch: repo.defaultBranch,
  };
}

/** `refs/heads/x` → branch x, `refs/tags/v1` → tag v1; other refs are not announced to webhooks. */
export function splitRef(ref: string): { refType: 'branch' | 'tag'; name: string } | null {
  if (ref.startsWith('refs/heads/')) return { refType: 'branch', name: ref.slice('refs/heads/'.length) };
  if (ref.startsWith('refs/tags/')) return { refType: 'tag', name: ref.slice('refs/tags/'.length) };
  return null;
}

/** Gitea's `PayloadCommit` (verification as the source has it; pushes do not compute it). */
function payloadCommit(c: PushedCommit & { verification?: unknown }): Record<string, unknown> {
  return {
    id: c.id,
    message: c.message,
    url: c.url,
    author: c.author,
    committer: c.committer,
    verification: c.verification ?? null,
    timestamp: c.timestamp,
    added: c.added,
    removed: c.removed,
    modified: c.modified,
  };
}

export interface PushPayloadInput {
  repository: Record<string, unknown>;
  pusher: UserDto | Record<string, unknown> | null;
  update: RefUpdate;
  urls: RepoUrls;
}

/** Gitea's `PushPayload`: commits oldest first, `head_commit` the newest. */
export function pushPayload(input: PushPayloadInput): Record<string, unknown> {
  const { update } = input;
  const commits = [...update.commits].reverse().map(payloadCommit);
  const compare =
    !isZeroId(update.old) && !isZeroId(update.new)
      ? input.urls.compare(update.old, update.new)
      : '';
  return {
    ref: update.ref,
    before: update.old,
    after: update.new,
    compare_url: compare,
    commits,
    total_commits: update.totalCommits,
    head_commit: update.commits[0] ? payloadCommit(update.commits[0]) : null,
    repository: input.repository,
    pusher: input.pusher,
    sender: input.pusher,
  };
}

/** Gitea's `CreatePayload` (`ref` is the short name). */
export function createPayload(
  repository: Record<string, unknown>,
  sender: unknown,
  refType: 'branch' | 'tag',
  name: string,
  sha: string,
): Record<string, unknown> {
  return { sha, ref: name, ref_type: refType, repository, sender };
}

export function deletePayload(
  repository: Record<string, unknown>,
  sender: unknown,
  refType: 'branch' | 'tag',
  name: string,
): Record<string, unknown> {
  return { ref: name, ref_type: refType, pusher_type: 'user', repository, sender };
}

export function repositoryPayload(
  action: 'created' | 'deleted',
  repository: Record<string, unknown>,
  sender: unknown,
): Record<string, unknown> {
  return { action, repository, organization: repository.owner ?? null, sender };
}
