import { DomainError } from '../errors/domain-error.js';
import { ErrorCode } from '../errors/error-code.js';
import type { ActorDto } from '../common/actor.js';
import { CommitStatusSubjects } from './commit-statuses.subjects.js';
import { GitDataSubjects } from './git-data.subjects.js';
import { IssueSubjects } from './issues.subjects.js';
import { LabelSubjects, MilestoneSubjects } from './labels.subjects.js';
import { PullSubjects } from './pulls.subjects.js';
import { ReleaseSubjects } from './releases.subjects.js';
import { accessAtLeast, type AccessLevel, type RepoUnit } from './repo-access.dto.js';
import { RepoSubjects } from './repo.subjects.js';

/** With `units`: the strongest of them counts (a team's `units_map` may make them differ). */
export interface RepoAccessNeed {
  need: AccessLevel;
  units?: RepoUnit | readonly RepoUnit[];
}

/** Gitea's `reqRepoReader(TypeIssues, TypePullRequests)`. */
export const ISSUES_OR_PULLS: readonly RepoUnit[] = ['issues', 'pulls'];

const on = (need: AccessLevel, units?: RepoUnit | readonly RepoUnit[]): RepoAccessNeed => (units ? { need, units } : { need });

/** The one home of each operation's level: the gateway's `@RepoAccess` and repo-service's `@RpcHandler` check it. */
export const REPO_ACCESS_NEEDS = {
  [IssueSubjects.lock]: on('write', ISSUES_OR_PULLS),
  [IssueSubjects.unlock]: on('write', ISSUES_OR_PULLS),
  [PullSubjects.merge]: on('write', 'pulls'),
  [PullSubjects.update]: on('write', 'pulls'),
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
  [ReleaseSubjects.assetDelete]: on('write', 'releases'),
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
export function assertRepoAccess(scope: { actor: ActorDto | null; access: AccessLevel }, need: AccessLevel): void {
  if (accessAtLeast(scope.access, need)) return;
  if (!scope.actor && need !== 'read') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
  throw DomainError.forbidden(DENIED[need]);
}

export function assertSubjectAccess(scope: { actor: ActorDto | null; access: AccessLevel }, subject: RepoAccessSubject): void {
  assertRepoAccess(scope, REPO_ACCESS_NEEDS[subject].need);
}
