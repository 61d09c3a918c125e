import {
  IssueCommentEvents, IssueEvents, PackageEvents, PullRequestEvents, RepoEvents, isZeroId, repoUrls,
  type IssueCommentEventData, type IssueEventData, type PackageEventData, type PullRequestEventData, type PushEventData,
  type RepoEventRepository, type RepositoryEventData,
} from '@cairn/contracts';
import {
  createPayload, deletePayload, pushPayload, repositoryJson, repositoryPayload, splitRef,
} from './gitea-payloads.js';

/** One webhook event derived from a domain event. */
export interface HookEventSpec {
  /** `X-Gitea-Event-Type` (see hook-events.ts). */
  eventType: string;
  /** Tells apart several specs of one domain event (part of the delivery's unique key). */
  key: string;
  action?: string;
  /** Gitea's native payload. */
  payload: Record<string, unknown>;
  /** The short branch name, when `branch_filter` applies (push/create/delete of a branch). */
  branch?: string;
  /** Push commits in the payload (chat-style hooks skip pushes without commits, as Gitea). */
  commitCount?: number;
}

/** What a domain event means for webhooks. */
export interface MappedEvent {
  /** The event's repository and owner; `id` 0: an owner's event outside any repository (packages not linked). */
  repository: { id: number; ownerId: number };
  specs: HookEventSpec[];
  /** Side effect on hooks, applied before matching. */
  effect?: 'copy-default-hooks' | 'delete-repository-hooks';
  /** The repository's own hooks do not get it (they are gone with the repository). */
  excludeRepositoryHooks?: boolean;
}

export interface MapContext {
  rootUrl: string;
}

type Mapper = (data: never, ctx: MapContext) => MappedEvent;

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

/** A push: `create` for each new ref (and its push), `delete` for each deleted ref, `push` for each update. */
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

/**
 * `repo.evt.issue.*` → Gitea's `IssuePayload` (`issues`); lock/unlock of a pull request → `pull_request`; label and
 * milestone actions → `issue_label`/`issue_milestone` (`pull_request_label`/`pull_request_milestone` for pull
 * requests, with Gitea's `PullRequestPayload`).
 */
function issueEvent(data: IssueEventData, ctx: MapContext): MappedEvent {
  const repository = repositoryJson(data.repository, ctx.rootUrl);
  const base = { action: data.action, number: data.number, ...(data.changes ? { changes: data.changes } : {}) };
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
        eventType: issueType,
        key: `${issueType}:${data.action}`,
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

/**
 * `repo.evt.pull-request.*` → Gitea's `PullRequestPayload`: `pull_request` (merged = action `closed` with
 * `pull_request.merged`), `pull_request_sync` for new head commits (action `synchronized`), and Cairn's
 * `mergeability_changed` action when a mergeability check result is stored.
 */
function pullRequestEvent(data: PullRequestEventData, ctx: MapContext): MappedEvent {
  const eventType = data.action === 'synchronized' ? 'pull_request_sync' : 'pull_request';
  const suffix = data.action === 'synchronized' ? `:${data.after ?? ''}` : data.mergeability ? `:${data.mergeability.headSha}:${data.mergeability.status}` : '';
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

/**
 * `packages.evt.package.*` → Gitea's `PackagePayload` (`package`): the linked repository's hooks, the owner's (user or
 * organization) and the system hooks get it; as Gitea 1.24, the payload's own `repository` and `organization` are
 * null (the linked repository is inside `package`, when the sender may see it).
 */
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

/**
 * Domain events → webhook events. Adding a type is one entry here. Types not listed are acknowledged and ignored.
 */
export const EVENT_MAP: Record<string, Mapper> = {
  [RepoEvents.repositoryCreated]: repositoryEvent('created'),
  [RepoEvents.repositoryDeleted]: repositoryEvent('deleted'),
  [RepoEvents.pushReceived]: pushEvent,
  ...Object.fromEntries(Object.values(IssueEvents).map((t) => [t, issueEvent])),
  ...Object.fromEntries(Object.values(IssueCommentEvents).map((t) => [t, commentEvent])),
  ...Object.fromEntries(Object.values(PullRequestEvents).map((t) => [t, pullRequestEvent])),
  [PackageEvents.versionCreated]: packageEvent,
  [PackageEvents.versionDeleted]: packageEvent,
};

export function mapDomainEvent(type: string, data: unknown, ctx: MapContext): MappedEvent | null {
  const mapper = EVENT_MAP[type];
  return mapper ? mapper(data as never, ctx) : null;
}
