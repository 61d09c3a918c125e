import {
  placeholderUser,
  repoUrls, type CommentDto, type CommentType, type IssueDto, type LabelDto, type MilestoneDto, type IssueState, type TimelineCommentDto, type UserDto, toApiTime
} from '@cairn/contracts';
import type { CommentRow, IssueRow } from './issues.repository.js';
import { toLabelDto, toMilestoneDto } from './label.mapper.js';

import type { IssueRenderContext } from '../../git-core/repositories/repo-views.js';

export type { IssueRenderContext };

/** A user by id, or Gitea's "Ghost" stand-in for a user that no longer exists. */
export function userOf(ctx: Pick<IssueRenderContext, 'users' | 'rootUrl'>, id: number): UserDto {
  return ctx.users.get(id) ?? placeholderUser(-1, 'Ghost', ctx.rootUrl);
}

/** `{root}{owner}/{repo}/issues/{n}` (or `/pulls/{n}` for pull requests), as Gitea's `Issue.HTMLURL`. */
export function issueHtmlUrl(ctx: Pick<IssueRenderContext, 'rootUrl' | 'repo'>, index: number, isPull: boolean): string {
  return repoUrls(ctx.rootUrl, ctx.repo).issue(index, isPull);
}

export function issueApiUrl(ctx: Pick<IssueRenderContext, 'rootUrl' | 'repo'>, index: number): string {
  return repoUrls(ctx.rootUrl, ctx.repo).issueApi(index);
}

export function issueUserIds(row: Pick<IssueRow, 'posterId' | 'assignees'>): number[] {
  return [row.posterId, ...(row.assignees ?? []).map((a) => a.assigneeId)];
}

/** `assignee` (the first) and `assignees` of an issue or pull request; null when none (Gitea's nil). */
export function assigneesOf(row: Pick<IssueRow, 'assignees'>, ctx: Pick<IssueRenderContext, 'users' | 'rootUrl'>): { assignee: UserDto | null; assignees: UserDto[] | null } {
  const users = (row.assignees ?? []).map((a) => userOf(ctx, a.assigneeId));
  return { assignee: users[0] ?? null, assignees: users.length ? users : null };
}

/** Times that may be unset: null rather than Gitea's epoch (the JSON has `closed_at: null` for open issues). */
export function optionalTime(d: Date | null | undefined): string | null {
  return d ? toApiTime(d) : null;
}

/** Gitea's `Issue` JSON, with GitHub's `locked`/`active_lock_reason`. */
export function toIssueDto(row: IssueRow, ctx: IssueRenderContext): IssueDto {
  const html = issueHtmlUrl(ctx, row.index, row.isPull);
  const pr = row.pullRequest;
  return {
    id: row.id,
    url: issueApiUrl(ctx, row.index),
    html_url: html,
    number: row.index,
    user: userOf(ctx, row.posterId),
    original_author: '',
    original_author_id: 0,
    title: row.title,
    body: row.body,
    ref: '',
    assets: [],
    labels: (row.labels ?? []).map((l) => toLabelDto(l.label, ctx)),
    milestone: row.milestone ? toMilestoneDto(row.milestone) : null,
    ...assigneesOf(row, ctx),
    state: row.state as IssueState,
    is_locked: row.isLocked,
    locked: row.isLocked,
    active_lock_reason: row.isLocked ? (row.lockReason ?? null) : null,
    comments: row.numComments,
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
    closed_at: optionalTime(row.closedAt),
    due_date: null,
    pull_request: row.isPull
      ? { merged: pr?.merged ?? false, merged_at: optionalTime(pr?.mergedAt), draft: false, html_url: html }
      : null,
    repository: {
      id: ctx.repo.id,
      name: ctx.repo.name,
      owner: ctx.repo.ownerName,
      full_name: `${ctx.repo.ownerName}/${ctx.repo.name}`,
    },
    pin_order: 0,
  };
}

export function toCommentDto(row: CommentRow, issue: Pick<IssueRow, 'index' | 'isPull'>, ctx: IssueRenderContext): CommentDto {
  const html = issueHtmlUrl(ctx, issue.index, issue.isPull);
  return {
    id: row.id,
    html_url: `${html}#issuecomment-${row.id}`,
    pull_request_url: issue.isPull ? html : '',
    issue_url: issue.isPull ? '' : html,
    user: userOf(ctx, row.posterId),
    original_author: '',
    original_author_id: 0,
    body: row.body,
    assets: [],
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
  };
}

/** The labels and milestones timeline entries name, by id (deleted ones are absent: the entry shows null). */
export interface TimelineRefs {
  labels: Map<number, LabelDto>;
  milestones: Map<number, MilestoneDto>;
}

export function toTimelineDto(
  row: CommentRow, issue: Pick<IssueRow, 'index' | 'isPull'>, ctx: IssueRenderContext, refs?: TimelineRefs,
): TimelineCommentDto {
  const dto: TimelineCommentDto = { ...toCommentDto(row, issue, ctx), type: row.type as CommentType };
  if (row.type === 'change_title') Object.assign(dto, { old_title: row.oldTitle ?? '', new_title: row.newTitle ?? '' });
  if (row.type === 'assignees' && row.assigneeId !== null) {
    Object.assign(dto, { assignee: userOf(ctx, row.assigneeId), removed_assignee: row.removedAssignee });
  }
  if (row.type === 'label') dto.label = (row.labelId !== null && refs?.labels.get(row.labelId)) || null;
  if (row.type === 'milestone') {
    dto.milestone = (row.milestoneId !== null && refs?.milestones.get(row.milestoneId)) || null;
    dto.old_milestone = (row.oldMilestoneId !== null && refs?.milestones.get(row.oldMilestoneId)) || null;
  }
  return dto;
}

export function timelineUserIds(row: Pick<CommentRow, 'posterId' | 'assigneeId'>): number[] {
  return row.assigneeId === null ? [row.posterId] : [row.posterId, row.assigneeId];
}
