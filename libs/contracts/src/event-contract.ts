import {
  IdentityEvents,
  type AccountDeletedData, type DomainEvent, type OrgCreatedData, type OrgMemberEventData, type TokenRevokedData,
  type UserCreatedData,
} from './events.js';
import { PackageEvents, type PackageEventData } from './packages/package-events.js';
import { CommitStatusEvents } from './repo/commit-status-events.js';
import type { CommitStatusEventData } from './repo/commit-statuses.dto.js';
import {
  IssueCommentEvents, IssueEvents, PullRequestEvents, PullReviewEvents,
  type IssueCommentEventData, type IssueEventData, type PullRequestEventData, type PullReviewEventData,
} from './repo/issue-events.js';
import { ReleaseEvents, type ReleaseEventData } from './repo/releases.dto.js';
import {
  RepoEvents, type PushEventData, type RepositoryEventData, type RepositoryForkedEventData,
} from './repo/repo-events.js';
import { RunnersEvents, type RunnerEventData } from './runners/runners-events.js';

type PayloadOfEach<Group extends Record<string, string>, Data> = { [K in Group[keyof Group]]: Data };

/** The event twin of `RpcContract`: an unknown subject or a wrong payload does not compile. */
export interface EventContract
  extends PayloadOfEach<typeof IssueEvents, IssueEventData>,
    PayloadOfEach<typeof IssueCommentEvents, IssueCommentEventData>,
    PayloadOfEach<typeof PullRequestEvents, PullRequestEventData>,
    PayloadOfEach<typeof PullReviewEvents, PullReviewEventData>,
    PayloadOfEach<typeof ReleaseEvents, ReleaseEventData>,
    PayloadOfEach<typeof CommitStatusEvents, CommitStatusEventData>,
    PayloadOfEach<typeof PackageEvents, PackageEventData>,
    PayloadOfEach<typeof RunnersEvents, RunnerEventData> {
  [IdentityEvents.userCreated]: UserCreatedData;
  [IdentityEvents.userDeleted]: AccountDeletedData;
  [IdentityEvents.tokenRevoked]: TokenRevokedData;
  [IdentityEvents.orgCreated]: OrgCreatedData;
  [IdentityEvents.memberAdded]: OrgMemberEventData;
  [IdentityEvents.memberRemoved]: OrgMemberEventData;
  [RepoEvents.repositoryCreated]: RepositoryEventData;
  [RepoEvents.repositoryDeleted]: RepositoryEventData;
  [RepoEvents.repositoryForked]: RepositoryForkedEventData;
  [RepoEvents.pushReceived]: PushEventData;
}

export type EventSubject = keyof EventContract;

export interface EventOf<S extends EventSubject> extends DomainEvent<EventContract[S]> {
  type: S;
}

export type AnyDomainEvent = { [S in EventSubject]: EventOf<S> }[EventSubject];

/** The run-time list the catalogue and NATS permissions come from; checked below to equal {@link EventContract}. */
export const EVENT_GROUPS = {
  IdentityEvents, RepoEvents, IssueEvents, IssueCommentEvents, PullRequestEvents, PullReviewEvents, ReleaseEvents,
  CommitStatusEvents, PackageEvents, RunnersEvents,
} as const;

type GroupedSubject = { [G in keyof typeof EVENT_GROUPS]: (typeof EVENT_GROUPS)[G][keyof (typeof EVENT_GROUPS)[G]] }[keyof typeof EVENT_GROUPS];
export const EVENT_GROUPS_MATCH_CONTRACT: [GroupedSubject] extends [EventSubject]
  ? [EventSubject] extends [GroupedSubject] ? true : never
  : never = true;

export const EVENT_SUBJECTS: readonly EventSubject[] = Object.values(EVENT_GROUPS).flatMap(
  (group) => Object.values(group) as EventSubject[],
);

/** A durable consumer's one filter (NATS 2.9 takes one): a subject of the contract, or every event of one service. */
export type EventFilter = EventSubject | (EventSubject extends `${infer S}.evt.${string}` ? `${S}.evt.>` : never);

/**
 * Every durable JetStream consumer, by its durable name (replicas share it): the NATS user of the service running it
 * and its filter. The NATS permissions let each service create and read only its own consumers.
 */
export const EVENT_CONSUMERS = {
  'hooks-service': { service: 'hooks', subject: 'repo.evt.>' },
  'hooks-service-packages': { service: 'hooks', subject: 'packages.evt.>' },
  'hooks-service-owners': { service: 'hooks', subject: IdentityEvents.userDeleted },
  'packages-service-owners': { service: 'packages', subject: IdentityEvents.userDeleted },
  'packages-service-repositories': { service: 'packages', subject: RepoEvents.repositoryDeleted },
  'repo-service-deleted-accounts': { service: 'repo', subject: IdentityEvents.userDeleted },
  /** Every repository event; the service picks the ones that notify. */
  'repo-service-notifications': { service: 'repo', subject: 'repo.evt.>' },
  'runners-service-users': { service: 'runners', subject: IdentityEvents.userDeleted },
  'runners-service-repositories': { service: 'runners', subject: RepoEvents.repositoryDeleted },
} as const satisfies Record<string, { service: string; subject: EventFilter }>;

export type EventConsumerName = keyof typeof EVENT_CONSUMERS;
