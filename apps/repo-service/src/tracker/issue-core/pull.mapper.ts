import { toApiTime } from '@cairn/contracts';
import type { MergeableState, PullRequestDto, RepositoryDto, TeamDto, UserDto } from '@cairn/contracts';
import { assigneesOf, issueHtmlUrl, optionalTime, userOf, type IssueRenderContext } from './issue.mapper.js';
import type { IssueRow } from './issues.repository.js';
import { toLabelDto, toMilestoneDto } from './label.mapper.js';
import type { PullRequest } from '../../generated/prisma/client.js';

export type PullIssueRow = IssueRow & { pullRequest: PullRequest };

export function isPullRow(row: IssueRow | null | undefined): row is PullIssueRow {
  return !!row && row.isPull && row.pullRequest !== null;
}

export interface PullRenderContext extends IssueRenderContext {
  /** The repository's JSON (the base, and the head unless it is in another repository). */
  repoJson: RepositoryDto | null;
  /** Head repositories other than this one (forks), by id; null when deleted since. */
  headRepos?: Map<number, RepositoryDto | null>;
  stats?: { additions: number; deletions: number; changedFiles: number };
  requested?: Map<number, number[]>;
  requestedTeams?: Map<number, TeamDto[]>;
}

/** The stored status counts only for its commits: when base or head moved since, it is `checking`. */
export function effectiveStatus(pr: PullRequest): MergeableState {
  const status = pr.status as MergeableState;
  if (status === 'checking') return 'checking';
  if (pr.checkedBaseSha !== pr.baseSha || pr.checkedHeadSha !== pr.headSha) return 'checking';
  return status;
}

/** Gitea's `PullRequest` JSON, plus `locked`/`active_lock_reason` and Cairn's `mergeable_state`/`conflicted_files`. */
export function toPullDto(row: PullIssueRow, ctx: PullRenderContext): PullRequestDto {
  const pr = row.pullRequest;
  const html = issueHtmlUrl(ctx, row.index, true);
  const status = effectiveStatus(pr);
  // Gitea's `label` is the branch name, in a fork too (GitHub's `owner:branch` is not Gitea's).
  const branch = (name: string, sha: string, repoId = ctx.repo.id, repo = ctx.repoJson, ref = name) => ({
    label: name,
    ref,
    sha,
    repo_id: repoId,
    repo,
  });
  // A head in another repository: that repository's JSON; once it is deleted, Gitea's `refs/pull/N/head`, repo_id -1.
  const headRepo = pr.headRepoId === null ? null : (ctx.headRepos?.get(pr.headRepoId) ?? null);
  const head = pr.headRepoId === null
    ? branch(pr.headBranch, pr.headSha)
    : headRepo
      ? branch(pr.headBranch, pr.headSha, pr.headRepoId, headRepo)
      : branch(pr.headBranch, pr.headSha, -1, null, `refs/pull/${row.index}/head`);
  const dto: PullRequestDto = {
    id: pr.id,
    url: html,
    number: row.index,
    user: userOf(ctx, row.posterId),
    title: row.title,
    body: row.body,
    labels: (row.labels ?? []).map((l) => toLabelDto(l.label, ctx)),
    milestone: row.milestone ? toMilestoneDto(row.milestone) : null,
    ...assigneesOf(row, ctx),
    requested_reviewers: requestedReviewers(row, ctx),
    requested_reviewers_teams: ctx.requestedTeams?.get(row.id)?.length ? ctx.requestedTeams.get(row.id)! : null,
    state: row.state as 'open' | 'closed',
    draft: false,
    is_locked: row.isLocked,
    locked: row.isLocked,
    active_lock_reason: row.isLocked ? (row.lockReason ?? null) : null,
    comments: row.numComments,
    review_comments: 0,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    mergeable: status === 'mergeable' && !pr.merged && row.state === 'open',
    merged: pr.merged,
    merged_at: optionalTime(pr.mergedAt),
    merge_commit_sha: pr.mergeCommitSha ?? null,
    merged_by: pr.merged && pr.mergedById ? userOf(ctx, pr.mergedById) : null,
    allow_maintainer_edit: pr.allowMaintainerEdit,
    base: branch(pr.baseBranch, pr.baseSha),
    head,
    merge_base: pr.mergeBase,
    due_date: null,
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
    closed_at: optionalTime(row.closedAt),
    pin_order: 0,
    mergeable_state: status,
    conflicted_files: status === 'conflict' ? (pr.conflictedFiles ?? []) : [],
  };
  if (ctx.stats) {
    dto.additions = ctx.stats.additions;
    dto.deletions = ctx.stats.deletions;
    dto.changed_files = ctx.stats.changedFiles;
  }
  return dto;
}

/** The users asked to review and not answered yet; null when none (Gitea's nil slice). */
function requestedReviewers(row: PullIssueRow, ctx: PullRenderContext): UserDto[] | null {
  const ids = ctx.requested?.get(row.id) ?? [];
  return ids.length ? ids.map((id) => userOf(ctx, id)) : null;
}
