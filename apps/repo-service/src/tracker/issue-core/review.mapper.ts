import { toApiTime } from '@cairn/contracts';
import type { PullReviewCommentDto, PullReviewDto, ReviewState, TeamDto } from '@cairn/contracts';
import { issueHtmlUrl, type IssueRenderContext } from './issue.mapper.js';
import type { ReviewCommentRow, ReviewRow, ReviewType } from './reviews.repository.js';

const STATE_OF: Record<ReviewType, ReviewState> = {
  pending: 'PENDING',
  approve: 'APPROVED',
  reject: 'REQUEST_CHANGES',
  comment: 'COMMENT',
  request: 'REQUEST_REVIEW',
};

export interface ReviewRenderContext extends IssueRenderContext {
  index: number;
  headSha: string;
  teams?: Map<number, TeamDto>;
}

/** Stale once the head is not the reviewed commit (Gitea marks them when it moves); never requests or drafts. */
export function isStale(row: Pick<ReviewRow, 'type' | 'commitId'>, headSha: string): boolean {
  return (row.type === 'approve' || row.type === 'reject' || row.type === 'comment') && !!row.commitId && row.commitId !== headSha;
}

export function toReviewDto(row: ReviewRow, ctx: ReviewRenderContext): PullReviewDto {
  const pullUrl = issueHtmlUrl(ctx, ctx.index, true);
  return {
    id: row.id,
    user: row.reviewerId > 0 ? (ctx.users.get(row.reviewerId) ?? null) : null,
    team: row.reviewerTeamId > 0 ? (ctx.teams?.get(row.reviewerTeamId) ?? null) : null,
    state: STATE_OF[row.type as ReviewType] ?? 'COMMENT',
    body: row.body,
    commit_id: row.commitId,
    stale: isStale(row, ctx.headSha),
    official: row.official,
    dismissed: row.dismissed,
    comments_count: row._count.comments,
    submitted_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
    html_url: `${pullUrl}#issuecomment-${row.id}`,
    pull_request_url: pullUrl,
  };
}

/** Gitea's `PullReviewComment` JSON: a positive stored line is the new side, a negative one the old side. */
export function toReviewCommentDto(row: ReviewCommentRow, ctx: ReviewRenderContext): PullReviewCommentDto {
  const pullUrl = issueHtmlUrl(ctx, ctx.index, true);
  return {
    id: row.id,
    body: row.body,
    user: ctx.users.get(row.posterId) ?? null,
    resolver: null,
    pull_request_review_id: row.reviewId,
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
    path: row.path,
    commit_id: row.commitId,
    original_commit_id: row.commitId,
    diff_hunk: '',
    position: row.line > 0 ? row.line : 0,
    original_position: row.line < 0 ? -row.line : 0,
    html_url: `${pullUrl}/files#issuecomment-${row.id}`,
    pull_request_url: pullUrl,
  };
}
