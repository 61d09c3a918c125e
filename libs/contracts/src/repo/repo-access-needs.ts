import { DomainError } from '../errors/domain-error.js';
import { ErrorCode } from '../errors/error-code.js';
import type { ActorDto } from '../common/actor.js';
import { CommitStatusSubjects } from './commit-statuses.subjects.js';
import { GitDataSubjects } from './git-data.subjects.js';
import { IssueSubjects } from './issues.subjects.js';
import { LabelSubjects, MilestoneSubjects } from './labels.subjects.js';
import { PullSubjects } from './pulls.subjects.js';
import { ReleaseSubjects } from './releases.subjects.js';
import { ReviewSubjects } from './reviews.subjects.js';
import { accessAtLeast, type AccessLevel, type RepoUnit } from './repo-access.dto.js';
import { RepoSubjects } from './repo.subjects.js';

/** With `units`: the strongest of them counts (a team's `units_map` may make them differ). */
export interface RepoAccessNeed {
  need: AccessLevel;
  units?: RepoUnit | readonly RepoUnit[];
  /** Gitea's own wording for this operation's refusal, where it is not the level's usual message. */
  denied?: string;
  /**
   * The subject also has a form about no repository (the caller's notifications, the instance's signing key): the
   * need applies to a message that names a `repo`, and one without is not repository-scoped.
   */
  repoOptional?: true;
}

/** Gitea's `reqRepoReader(TypeIssues, TypePullRequests)`. */
export const ISSUES_OR_PULLS: readonly RepoUnit[] = ['issues', 'pulls'];

const on = (need: AccessLevel, units?: RepoUnit | readonly RepoUnit[]): RepoAccessNeed => (units ? { need, units } : { need });

/** Repository operations that are not one bus subject, named for {@link REPO_ACCESS_NEEDS} like a subject. */
export const RepoOperations = {
  /** Streamed to repo-service's `POST /internal/attachments`, with the caller's level in `INTERNAL_HEADERS.access`. */
  attachmentUpload: 'repo-op.release.attachment.upload',
  /** Every `HooksSubjects` message of a `repo` scope (hooks-service's `HookScopeResolver`). */
  hooks: 'repo-op.hooks',
  /** Every Actions variables/secrets/runners message of a `repo` scope; Gitea's `reqOwner`, so repository admins are refused. */
  actions: 'repo-op.actions',
} as const;

/**
 * The one home of each operation's level: the gateway's `@RepoAccess` and repo-service's `@RpcHandler` check it; a
 * {@link RepoOperations} entry is checked by its service with `assertSubjectAccess`.
 */
export const REPO_ACCESS_NEEDS = {
  // The issue tracker's shared routes: read on either unit here; the issue's own unit, and "write or its author"
  // for edits, are repo-service's (narrowToIssueUnit, canModify).
  [IssueSubjects.list]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.get]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.create]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.edit]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.timeline]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.commentList]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.commentGet]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.commentCreate]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.commentEdit]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.commentDelete]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.assignees]: on('read', ISSUES_OR_PULLS),
  [IssueSubjects.lock]: on('write', ISSUES_OR_PULLS),
  [IssueSubjects.unlock]: on('write', ISSUES_OR_PULLS),
  // Pull requests: reading is enough to open one, edit one's own (repo-service's canModify) or review.
  [PullSubjects.list]: on('read', 'pulls'),
  [PullSubjects.get]: on('read', 'pulls'),
  [PullSubjects.getByBranches]: on('read', 'pulls'),
  [PullSubjects.create]: on('read', 'pulls'),
  [PullSubjects.edit]: on('read', 'pulls'),
  [PullSubjects.commits]: on('read', 'pulls'),
  [PullSubjects.files]: on('read', 'pulls'),
  [PullSubjects.isMerged]: on('read', 'pulls'),
  [PullSubjects.merge]: on('write', 'pulls'),
  [PullSubjects.update]: on('write', 'pulls'),
  [ReviewSubjects.list]: on('read', 'pulls'),
  [ReviewSubjects.get]: on('read', 'pulls'),
  [ReviewSubjects.comments]: on('read', 'pulls'),
  [ReviewSubjects.create]: on('read', 'pulls'),
  [ReviewSubjects.submit]: on('read', 'pulls'),
  // The reviewer's own (or a site admin's): repo-service's rule.
  [ReviewSubjects.delete]: on('read', 'pulls'),
  // Writers, or the pull request's author: repo-service's rule.
  [ReviewSubjects.requestAdd]: on('read', 'pulls'),
  [ReviewSubjects.requestRemove]: on('read', 'pulls'),
  [ReviewSubjects.dismiss]: { need: 'admin', units: 'pulls', denied: 'Must be repo admin' },
  [ReviewSubjects.undismiss]: { need: 'admin', units: 'pulls', denied: 'Must be repo admin' },
  [LabelSubjects.list]: on('read', ISSUES_OR_PULLS),
  [LabelSubjects.get]: on('read', ISSUES_OR_PULLS),
  [LabelSubjects.create]: on('write', ISSUES_OR_PULLS),
  [LabelSubjects.edit]: on('write', ISSUES_OR_PULLS),
  [LabelSubjects.delete]: on('write', ISSUES_OR_PULLS),
  [LabelSubjects.issueList]: on('read', ISSUES_OR_PULLS),
  [LabelSubjects.issueAdd]: on('write', ISSUES_OR_PULLS),
  [LabelSubjects.issueReplace]: on('write', ISSUES_OR_PULLS),
  [LabelSubjects.issueRemove]: on('write', ISSUES_OR_PULLS),
  [LabelSubjects.issueClear]: on('write', ISSUES_OR_PULLS),
  [MilestoneSubjects.list]: on('read', ISSUES_OR_PULLS),
  [MilestoneSubjects.get]: on('read', ISSUES_OR_PULLS),
  [MilestoneSubjects.create]: on('write', ISSUES_OR_PULLS),
  [MilestoneSubjects.edit]: on('write', ISSUES_OR_PULLS),
  [MilestoneSubjects.delete]: on('write', ISSUES_OR_PULLS),
  [ReleaseSubjects.list]: on('read', 'releases'),
  [ReleaseSubjects.get]: on('read', 'releases'),
  [ReleaseSubjects.getByTag]: on('read', 'releases'),
  [ReleaseSubjects.latest]: on('read', 'releases'),
  [ReleaseSubjects.create]: on('write', 'releases'),
  [ReleaseSubjects.edit]: on('write', 'releases'),
  [ReleaseSubjects.delete]: on('write', 'releases'),
  [ReleaseSubjects.deleteByTag]: on('write', 'releases'),
  [ReleaseSubjects.assetList]: on('read', 'releases'),
  [ReleaseSubjects.assetGet]: on('read', 'releases'),
  [ReleaseSubjects.assetEdit]: on('write', 'releases'),
  [RepoOperations.attachmentUpload]: on('write', 'releases'),
  [ReleaseSubjects.assetDelete]: on('write', 'releases'),
  // The repository itself; who may move it where, or fork it into which owner, is repo-service's rule.
  [RepoSubjects.repositoryGet]: on('read'),
  [RepoSubjects.repositoryEdit]: on('admin'),
  [RepoSubjects.repositoryDelete]: on('owner'),
  [RepoSubjects.repositoryTransfer]: on('owner'),
  [RepoSubjects.repositoryFork]: on('read', 'code'),
  [RepoSubjects.repositoryForks]: on('read', 'code'),
  // Stars and watches: any reader of the repository.
  [RepoSubjects.followFollowers]: on('read'),
  [RepoSubjects.followCheck]: on('read'),
  [RepoSubjects.followSet]: on('read'),
  [RepoSubjects.notificationList]: { need: 'read', repoOptional: true },
  [RepoSubjects.notificationRead]: { need: 'read', repoOptional: true },
  [RepoSubjects.signingKeyGet]: { need: 'read', repoOptional: true },
  [RepoOperations.hooks]: on('admin'),
  [RepoOperations.actions]: on('owner'),
  [RepoSubjects.collaboratorList]: on('read'),
  [RepoSubjects.collaboratorCheck]: on('read'),
  [RepoSubjects.collaboratorAdd]: on('admin'),
  [RepoSubjects.collaboratorRemove]: on('admin'),
  // Who may ask about whom is the service's own rule (self, repository admins, site admins).
  [RepoSubjects.collaboratorPermission]: on('read'),
  [RepoSubjects.branchProtectionList]: on('admin'),
  [RepoSubjects.branchProtectionGet]: on('admin'),
  [RepoSubjects.branchProtectionCreate]: on('admin'),
  [RepoSubjects.branchProtectionEdit]: on('admin'),
  [RepoSubjects.branchProtectionDelete]: on('admin'),
  [RepoSubjects.topicList]: on('read'),
  [RepoSubjects.topicReplace]: on('admin'),
  [RepoSubjects.topicAdd]: on('admin'),
  [RepoSubjects.topicDelete]: on('admin'),
  [RepoSubjects.deployKeyList]: on('admin'),
  [RepoSubjects.deployKeyGet]: on('admin'),
  [RepoSubjects.deployKeyCreate]: on('admin'),
  [RepoSubjects.deployKeyDelete]: on('admin'),
  [RepoSubjects.contentsGet]: on('read', 'code'),
  [RepoSubjects.rawGet]: on('read', 'code'),
  [RepoSubjects.fileContents]: on('read', 'code'),
  // Write on the code; the branch's protection rules are repo-service's.
  [RepoSubjects.contentsChange]: on('write', 'code'),
  [RepoSubjects.commitList]: on('read', 'code'),
  [RepoSubjects.commitGet]: on('read', 'code'),
  [RepoSubjects.compare]: on('read', 'code'),
  [GitDataSubjects.refList]: on('read', 'code'),
  [GitDataSubjects.annotatedTag]: on('read', 'code'),
  [GitDataSubjects.tree]: on('read', 'code'),
  [GitDataSubjects.blob]: on('read', 'code'),
  [RepoSubjects.branchList]: on('read', 'code'),
  [RepoSubjects.branchGet]: on('read', 'code'),
  [RepoSubjects.branchCreate]: on('write', 'code'),
  [RepoSubjects.branchDelete]: on('write', 'code'),
  [RepoSubjects.branchRename]: on('write', 'code'),
  [GitDataSubjects.tagList]: on('read', 'code'),
  [GitDataSubjects.tagGet]: on('read', 'code'),
  [GitDataSubjects.tagCreate]: on('write', 'code'),
  [GitDataSubjects.tagDelete]: on('write', 'code'),
  [CommitStatusSubjects.list]: on('read', 'code'),
  [CommitStatusSubjects.combined]: on('read', 'code'),
  [CommitStatusSubjects.create]: on('write', 'code'),
} as const satisfies Record<string, RepoAccessNeed>;

/** A subject (or {@link RepoOperations} name) whose required level is declared in {@link REPO_ACCESS_NEEDS}. */
export type RepoAccessSubject = keyof typeof REPO_ACCESS_NEEDS;

export function repoAccessNeed(subject: string): RepoAccessNeed | undefined {
  return Object.hasOwn(REPO_ACCESS_NEEDS, subject) ? REPO_ACCESS_NEEDS[subject as RepoAccessSubject] : undefined;
}

const DENIED: Record<AccessLevel, string> = {
  none: 'not found',
  read: 'user should have a permission to read units',
  write: 'user should have a permission to write to a repo',
  admin: 'user should be an owner or a collaborator with admin write of a repository',
  owner: 'user should be the owner of the repo',
};

/** As Gitea: 401 for an anonymous caller beyond reading, else 403 (an invisible repository is a 404 before this). */
export function assertRepoAccess(
  scope: { actor: Pick<ActorDto, 'id'> | null; access: AccessLevel },
  need: AccessLevel,
  denied: string = DENIED[need],
): void {
  if (accessAtLeast(scope.access, need)) return;
  if (!scope.actor && need !== 'read') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
  throw DomainError.forbidden(denied);
}

/** Whether `access` meets `subject`'s need: for web forms, shown only where the service would take them. */
export function meetsSubjectAccess(access: AccessLevel, subject: RepoAccessSubject): boolean {
  return accessAtLeast(access, REPO_ACCESS_NEEDS[subject].need);
}

export function assertSubjectAccess(
  scope: { actor: Pick<ActorDto, 'id'> | null; access: AccessLevel },
  subject: RepoAccessSubject,
): void {
  const declared: RepoAccessNeed = REPO_ACCESS_NEEDS[subject];
  assertRepoAccess(scope, declared.need, declared.denied);
}
