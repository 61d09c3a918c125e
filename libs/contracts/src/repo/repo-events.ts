import type { DomainEvent } from '../events.js';
import type { UserDto } from '../identity/user.dto.js';

/** Published by repo-service through its outbox. */
export const RepoEvents = {
  /** A repository was created (hooks-service copies default hooks into it). */
  repositoryCreated: 'repo.evt.repository.created',
  /** A repository was deleted. */
  repositoryDeleted: 'repo.evt.repository.deleted',
  /** A repository was forked (the source repository's hooks get a `fork` webhook). */
  repositoryForked: 'repo.evt.repository.forked',
  /** A push updated refs: one event, or several in order when one would be over `EVENT_MAX_BYTES`. */
  pushReceived: 'repo.evt.push.received',
} as const;

export interface RepoEventRepository {
  id: number;
  ownerId: number;
  ownerName: string;
  ownerKind: 'user' | 'organization';
  name: string;
  fullName: string;
  private: boolean;
  defaultBranch: string;
  json: Record<string, unknown>;
}

export interface RepositoryEventData {
  repository: RepoEventRepository;
  sender: UserDto | null;
}

export function deletedRepositoryIdOf(event: DomainEvent): number | null {
  if (event.type !== RepoEvents.repositoryDeleted) return null;
  const id = (event.data as Partial<RepositoryEventData> | null)?.repository?.id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

export interface RepositoryForkedEventData {
  repository: RepoEventRepository;
  forkee: RepoEventRepository;
  sender: UserDto | null;
}

export interface PushedCommit {
  id: string;
  message: string;
  url: string;
  author: { name: string; email: string; username: string };
  committer: { name: string; email: string; username: string };
  timestamp: string;
  added: string[];
  removed: string[];
  modified: string[];
}

/** All-zero `old`/`new` means created/deleted. */
export interface RefUpdate {
  ref: string;
  old: string;
  new: string;
  commits: PushedCommit[];
  totalCommits: number;
  /** Half of a branch rename: Gitea announces only the deleted and created ref (`delete`/`create` webhooks, no `push`). */
  renamed?: true;
}

export interface PushEventData {
  repository: RepoEventRepository;
  pusher: UserDto | null;
  updates: RefUpdate[];
}

