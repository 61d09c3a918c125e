import {
  CommitStatusEvents, IssueCommentEvents, IssueEvents, PackageEvents, PullRequestEvents, PullReviewEvents, ReleaseEvents,
  RepoEvents, isZeroId, type EventContract, type EventSubject, type ReleaseEventData,
  repoUrls, type IssueCommentEventData, type IssueEventData, type PackageEventData, type PullRequestEventData,
  type PullReviewEventData, type PushEventData, type RepositoryForkedEventData, type CommitStatusEventData, type RepoEventRepository, type RepositoryEventData,
} from '@cairn/contracts';
import {
  createPayload, deletePayload, pushPayload, repositoryJson, repositoryPayload, splitRef,
} from './gitea-payloads.js';

export interface HookEventSpec {
  /** `X-Gitea-Event-Type` (see hook-events.ts). */
  eventType: string;
  /** Tells apart several specs of one domain event (part of the delivery's unique key). */
  key: string;
  action?: string;
  payload: Record<string, unknown>;
  /** The short branch name, when `branch_filter` applies (push/create/delete of a branch). */
  branch?: string;
  /** Push commits in the payload (chat-style hooks skip pushes without commits, as Gitea). */
  commitCount?: number;
}

export interface MappedEvent {
  /** The event's repository and owner; `id` 0: an owner's event outside any repository (packages not linked). */
  repository: { id: number; ownerId: number };
  specs: HookEventSpec[];
  effect?: 'copy-default-hooks' | 'delete-repository-hooks';
  /** The repository's own hooks do not get it (they are gone with the repository). */
  excludeRepositoryHooks?: boolean;
}

export interface MapContext {
  rootUrl: string;
}

function repoRef(r: RepoEventRepository) {
  return { id: r.id, ownerId: r.ownerId };
}

function repositoryEvent(action: 'created' | 'deleted') {
  return (data: RepositoryEventData, ctx: MapContext): MappedEvent => ({
    repository: repoRef(data.repository),
    specs: [
      {
        eventType: 'repository',
        key: `repository:${action}`,
        action,
        payload: repositoryPayload(action, repositoryJson(data.repository, ctx.rootUrl), data.sender),
      },
    ],
    effect: action === 'created' ? 'copy-default-hooks' : 'delete-repository-hooks',
    excludeRepositoryHooks: action === 'deleted',
  });
}

// Gitea fills `forkee` with the source and `repository` with the fork; GitHub, whose header we also send, documents
// the opposite. We follow GitHub: `forkee` is the new fork.
function forkEvent(data: RepositoryForkedEventData, ctx: MapContext): MappedEvent {
  return {
    repository: repoRef(data.repository),
    specs: [
      {
        eventType: 'fork',
        key: `fork:${data.forkee.id}`,
        payload: {
          forkee: repositoryJson(data.forkee, ctx.rootUrl),
          repository: repositoryJson(data.repository, ctx.rootUrl),
          sender: data.sender,
        },
      },
    ],
  };
}

/** A renamed branch is only deleted and created, as Gitea's `RenameBranch` notifies. */
function pushEvent(data: PushEventData, ctx: MapContext): MappedEvent {
  const repository = repositoryJson(data.repository, ctx.rootUrl);
  const specs: HookEventSpec[] = [];
  for (const update of data.updates) {
    const ref = splitRef(update.ref);
    if (!ref) continue;
    const branch = ref.refType === 'branch' ? ref.name : undefined;
    if (isZeroId(update.new)) {
      specs.push({
        eventType: 'delete',
        key: `delete:${update.ref}`,
        payload: deletePayload(repository, data.pusher, ref.refType, ref.name),
        branch,
      });
      continue;
    }
    if (isZeroId(update.old)) {
      specs.push({
        eventType: 'create',
        key: `create:${update.ref}`,
        payload: createPayload(repository, data.pusher, ref.refType, ref.name, update.new),
        branch,
      });
    }
    if (update.renamed) continue;
    specs.push({
      eventType: 'push',
      key: `push:${update.ref}`,
      payload: pushPayload({ repository, pusher: data.pusher, update, urls: repoUrls(ctx.rootUrl, data.repository) }),
      branch,
      commitCount: update.commits.length,
    });
  }
  return { repository: repoRef(data.repository), specs };
}

/** The webhook event types of label and milestone actions (Gitea's `HookEventIssueLabel`, …). */
const ISSUE_SUB_EVENTS: Partial<Record<IssueEventData['action'], { issue: string; pull: string }>> = {
  label_updated: { issue: 'issue_label', pull: 'pull_request_label' },
  label_cleared: { issue: 'issue_label', pull: 'pull_request_label' },
  milestoned: { issue: 'issue_milestone', pull: 'pull_request_milestone' },
  demilestoned: { issue: 'issue_milestone', pull: 'pull_request_milestone' },
};

/** A pull request's lock and label/milestone actions go out as its `pull_request*` kinds. */
function issueEvent(data: IssueEventData, ctx: MapContext): MappedEvent {
  const repository = repositoryJson(data.repository, ctx.rootUrl);
  const base = {
    action: data.action,
    number: data.number,
    ...(data.changes ? { changes: data.changes } : {}),
    ...(data.assignee ? { assignee: data.assignee } : {}),
  };
  const assign = data.action === 'assigned' || data.action === 'unassigned';
  const sub = ISSUE_SUB_EVENTS[data.action];
  const issueType = sub?.issue ?? 'issues';
  const pullType = sub?.pull ?? 'pull_request';
  const spec: HookEventSpec = data.isPull
    ? {
        eventType: pullType,
        key: `${pullType}:${data.action}`,
        action: data.action,
        payload: { ...base, pull_request: data.pullRequest ?? data.issue, repository, sender: data.sender, commit_id: '' },
      }
    : {
        eventType: assign ? 'issue_assign' : issueType,
        key: assign ? `issue_assign:${data.action}:${data.assignee?.id ?? 0}` : `${issueType}:${data.action}`,
        action: data.action,
        payload: { ...base, issue: data.issue, repository, sender: data.sender, commit_id: '' },
      };
  return { repository: repoRef(data.repository), specs: [spec] };
}

/** `repo.evt.issue-comment.*` → Gitea's `IssueCommentPayload` (`issue_comment`, or `pull_request_comment`). */
function commentEvent(data: IssueCommentEventData, ctx: MapContext): MappedEvent {
  const eventType = data.isPull ? 'pull_request_comment' : 'issue_comment';
  return {
    repository: repoRef(data.repository),
    specs: [
      {
        eventType,
        key: `${eventType}:${data.action}:${data.comment.id}`,
        action: data.action,
        payload: {
          action: data.action,
          issue: data.issue,
          ...(data.pullRequest ? { pull_request: data.pullRequest } : {}),
          comment: data.comment,
          ...(data.changes ? { changes: data.changes } : {}),
          repository: repositoryJson(data.repository, ctx.rootUrl),
          sender: data.sender,
          is_pull: data.isPull,
        },
      },
    ],
  };
}

/** Merged is action `closed` with `pull_request.merged`; `mergeability_changed` is Cairn's own action. */
function pullRequestEvent(data: PullRequestEventData, ctx: MapContext): MappedEvent {
  const assign = data.action === 'assigned' || data.action === 'unassigned';
  const eventType = data.action === 'synchronized' ? 'pull_request_sync' : assign ? 'pull_request_assign' : 'pull_request';
  const suffix = data.action === 'synchronized'
    ? `:${data.after ?? ''}`
    : data.mergeability
      ? `:${data.mergeability.headSha}:${data.mergeability.status}`
      : assign ? `:${data.assignee?.id ?? 0}` : '';
  return {
    repository: repoRef(data.repository),
    specs: [
      {
        eventType,
        key: `${eventType}:${data.action}${suffix}`,
        action: data.action,
        payload: {
          action: data.action,
          number: data.number,
          ...(data.changes ? { changes: data.changes } : {}),
          pull_request: data.pullRequest,
          ...(data.assignee ? { assignee: data.assignee } : {}),
          ...(data.before !== undefined ? { before: data.before } : {}),
          ...(data.after !== undefined ? { after: data.after } : {}),
          ...(data.mergeability ? { mergeability: data.mergeability } : {}),
          repository: repositoryJson(data.repository, ctx.rootUrl),
          sender: data.sender,
          commit_id: data.commitId ?? '',
        },
      },
    ],
  };
}

/** Reviews are `pull_request_review_{approved,rejected,comment}`; requests `pull_request_review_request`. */
function pullReviewEvent(data: PullReviewEventData, ctx: MapContext): MappedEvent {
  const eventType = data.review ? `pull_request_review_${data.review.type}` : 'pull_request_review_request';
  const who = data.requestedReviewer ? `:${data.requestedReviewer.id}` : '';
  return {
    repository: repoRef(data.repository),
    specs: [
      {
        eventType,
        key: `${eventType}:${data.action}${who}`,
        action: data.action,
        payload: {
          action: data.action,
          number: data.number,
          pull_request: data.pullRequest,
          ...(data.requestedReviewer ? { requested_reviewer: data.requestedReviewer } : {}),
          repository: repositoryJson(data.repository, ctx.rootUrl),
          sender: data.sender,
          commit_id: '',
          ...(data.review ? { review: { type: eventType, content: data.review.content } } : {}),
        },
      },
    ],
  };
}

/** `id` is the status's database id, as Gitea's notifier sends it; no branch filter applies (Gitea matches no ref). */
function commitStatusEvent(data: CommitStatusEventData, ctx: MapContext): MappedEvent {
  const s = data.status;
  return {
    repository: repoRef(data.repository),
    specs: [
      {
        eventType: 'status',
        key: `status:${data.id}`,
        payload: {
          commit: data.commit,
          context: s.context,
          created_at: s.created_at,
          description: s.description,
          id: data.id,
          repository: repositoryJson(data.repository, ctx.rootUrl),
          sender: data.sender,
          sha: data.sha,
          state: s.status,
          target_url: s.target_url,
          updated_at: s.updated_at,
        },
      },
    ],
  };
}

/** As Gitea 1.24, the payload's own `repository` and `organization` are null (the linked repo is in `package`). */
function packageEvent(data: PackageEventData): MappedEvent {
  const version = data.package;
  return {
    repository: { id: data.repository?.id ?? 0, ownerId: data.ownerId },
    specs: [
      {
        eventType: 'package',
        key: `package:${data.action}`,
        action: data.action,
        payload: { action: data.action, repository: null, package: version, organization: null, sender: data.sender },
      },
    ],
  };
}

function releaseEvent(data: ReleaseEventData, ctx: MapContext): MappedEvent {
  return {
    repository: repoRef(data.repository),
    specs: [
      {
        eventType: 'release',
        key: `release:${data.action}:${data.release.id}`,
        action: data.action,
        payload: {
          action: data.action,
          release: data.release,
          repository: repositoryJson(data.repository, ctx.rootUrl),
          sender: data.sender,
        },
      },
    ],
  };
}

type MapperOf<S extends EventSubject> = (data: EventContract[S], ctx: MapContext) => MappedEvent;
type EventMap = { [S in EventSubject]?: MapperOf<S> };

function each<G extends Record<string, EventSubject>>(group: G, mapper: MapperOf<G[keyof G]>): EventMap {
  return Object.fromEntries(Object.values(group).map((subject) => [subject, mapper]));
}

/** Domain events → webhook events; types not listed are acknowledged and ignored. */
export const EVENT_MAP: EventMap = {
  [RepoEvents.repositoryCreated]: repositoryEvent('created'),
  [RepoEvents.repositoryDeleted]: repositoryEvent('deleted'),
  [RepoEvents.pushReceived]: pushEvent,
  [RepoEvents.repositoryForked]: forkEvent,
  ...each(IssueEvents, issueEvent),
  ...each(IssueCommentEvents, commentEvent),
  ...each(PullRequestEvents, pullRequestEvent),
  [CommitStatusEvents.created]: commitStatusEvent,
  ...each(PullReviewEvents, pullReviewEvent),
  ...each(PackageEvents, packageEvent),
  ...each(ReleaseEvents, releaseEvent),
};

export function mapDomainEvent<S extends EventSubject>(type: S, data: EventContract[S], ctx: MapContext): MappedEvent | null {
  const mapper = EVENT_MAP[type] as MapperOf<S> | undefined;
  return mapper ? mapper(data, ctx) : null;
}
