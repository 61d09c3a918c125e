import type { DomainEvent } from '../events.js';
import type { UserDto } from '../identity/user.dto.js';

/** Events published by repo-service (through its outbox) on the `CAIRN_EVENTS` stream. */
export const RepoEvents = {
  /** A repository was created (hooks-service copies default hooks into it). */
  repositoryCreated: 'repo.evt.repository.created',
  /** A repository was deleted. */
  repositoryDeleted: 'repo.evt.repository.deleted',
  /** A repository was forked (the source repository's hooks get a `fork` webhook). */
  repositoryForked: 'repo.evt.repository.forked',
  /**
   * A push updated one or more refs: one event per push with every ref update, or several (the updates in order)
   * when one would be over `EVENT_MAX_BYTES`. Consumers treat each ref update on its own.
   */
  pushReceived: 'repo.evt.push.received',
} as const;

/** A repository as events carry it (ids and names; consumers fetch more if they need it). */
export interface RepoEventRepository {
  id: number;
  ownerId: number;
  ownerName: string;
  ownerKind: 'user' | 'organization';
  name: string;
  fullName: string;
  private: boolean;
  defaultBranch: string;
  /** Gitea's `Repository` JSON at the time of the event (for webhook payloads). */
  json: Record<string, unknown>;
}

/** `repo.evt.repository.created` / `deleted`. */
export interface RepositoryEventData {
  repository: RepoEventRepository;
  /** Who did it (Gitea `User` shape). */
  sender: UserDto | null;
}

/** The id of the repository a `repo.evt.repository.deleted` event removed; null for other events or a malformed id. */
export function deletedRepositoryIdOf(event: DomainEvent): number | null {
  if (event.type !== RepoEvents.repositoryDeleted) return null;
  const id = (event.data as Partial<RepositoryEventData> | null)?.repository?.id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/** `repo.evt.repository.forked`: `repository` is the source, `forkee` the new fork. */
export interface RepositoryForkedEventData {
  repository: RepoEventRepository;
  forkee: RepoEventRepository;
  sender: UserDto | null;
}

/** One commit of a push, as webhook payloads need it (Gitea's `PayloadCommit`). */
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

/** One ref update of a push: `old`/`new` are full SHAs; all-zero means created/deleted. */
export interface RefUpdate {
  ref: string;
  old: string;
  new: string;
  /** Commits new to the repository on this ref, newest first (capped). */
  commits: PushedCommit[];
  /** Total number of new commits (may exceed `commits.length`). */
  totalCommits: number;
  /**
   * Half of a branch rename: Gitea's `RenameBranch` announces only the deleted and the created ref (`delete` and
   * `create` webhooks, no `push`), and no commits are new.
   */
  renamed?: true;
}

/** `repo.evt.push.received`. */
export interface PushEventData {
  repository: RepoEventRepository;
  pusher: UserDto | null;
  updates: RefUpdate[];
}

