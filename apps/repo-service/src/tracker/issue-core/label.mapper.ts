import { repoUrls, type LabelDto, type MilestoneDto, toApiTime } from '@cairn/contracts';
import type { Label, Milestone } from '../../generated/prisma/client.js';
import type { IssueRenderContext } from './issue.mapper.js';

export interface LabelUrlContext {
  rootUrl: string;
  repo?: Pick<IssueRenderContext['repo'], 'ownerName' | 'name'>;
  /** The organization of organization labels (default: the repository's owner). */
  orgName?: string;
}

/** Gitea's `convert.ToLabel`: `#rrggbb` answered without `#`; org labels link under `…/orgs/{org}/labels`. */
export function toLabelDto(row: Label, ctx: LabelUrlContext): LabelDto {
  const orgName = ctx.orgName ?? ctx.repo?.ownerName ?? '';
  const url = row.repoId !== null && ctx.repo
    ? `${repoUrls(ctx.rootUrl, ctx.repo).api}/labels/${row.id}`
    : `${ctx.rootUrl}api/v1/orgs/${encodeURIComponent(orgName)}/labels/${row.id}`;
  return {
    id: row.id,
    name: row.name,
    exclusive: row.exclusive,
    is_archived: row.archivedAt !== null,
    color: row.color.replace(/^#+/, ''),
    description: row.description,
    url,
  };
}

/** Gitea's `Milestone` JSON (`convert.ToAPIMilestone`): `closed_at` only when closed, `due_on` only when set. */
export function toMilestoneDto(row: Milestone): MilestoneDto {
  return {
    id: row.id,
    title: row.name,
    description: row.description,
    state: row.isClosed ? 'closed' : 'open',
    open_issues: row.numIssues - row.numClosedIssues,
    closed_issues: row.numClosedIssues,
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
    closed_at: row.isClosed && row.closedAt ? toApiTime(row.closedAt) : null,
    due_on: row.dueOn ? toApiTime(row.dueOn) : null,
  };
}
