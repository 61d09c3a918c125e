import { Injectable } from '@nestjs/common';
import type { MergeableState, Paging, PullSort } from '@cairn/contracts';
import type { Prisma, PullRequest } from '../../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../../foundation/prisma/prisma.service.js';
import type { PullIssueRow } from '../issue-core/pull.mapper.js';
import type { BranchRenameFollowers } from '../../code/branches/branch-rename-followers.js';
import { ISSUE_INCLUDE } from '../issue-core/issues.repository.js';

/** See `PullCheckCandidate`. */
export interface CandidateRow {
  id: number;
  repoId: number;
  index: number;
  issueUpdatedAt: Date;
  baseSha: string;
  headSha: string;
}

/** See `storeResultsWithEvents`. */
export interface StoredResult {
  pullId: number;
  status: Exclude<MergeableState, 'checking'>;
  files: string[];
  baseSha: string;
  headSha: string;
  mergeBase?: string;
  message?: string;
  event: { id: string; subject: string; payload: object; traceparent: string | null };
}

export interface CheckTargetRow {
  id: number;
  repoId: number;
  ownerName: string;
  repoName: string;
  baseSha: string;
  headSha: string;
  status: string;
}

const ORDER: Record<PullSort | 'newest', Prisma.IssueOrderByWithRelationInput[]> = {
  newest: [{ createdAt: 'desc' }, { id: 'desc' }],
  oldest: [{ createdAt: 'asc' }, { id: 'asc' }],
  recentupdate: [{ updatedAt: 'desc' }, { id: 'desc' }],
  leastupdate: [{ updatedAt: 'asc' }, { id: 'asc' }],
  recentclose: [{ closedAt: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
  mostcomment: [{ numComments: 'desc' }, { id: 'desc' }],
  leastcomment: [{ numComments: 'asc' }, { id: 'asc' }],
  priority: [{ updatedAt: 'desc' }, { id: 'desc' }],
};

@Injectable()
export class PullsRepository implements BranchRenameFollowers {
  constructor(private readonly prisma: PrismaService) {}

  insertPull(
    tx: Tx,
    data: {
      issueId: number; repoId: number; headRepoId: number | null; headBranch: string; baseBranch: string; headSha: string;
      baseSha: string; mergeBase: string; allowMaintainerEdit: boolean;
    },
  ): Promise<PullRequest> {
    return tx.pullRequest.create({ data: { ...data, status: 'checking' } });
  }

  /** `headRepoId` null: this repository. */
  findOpenByBranches(
    repoId: number, headRepoId: number | null, headBranch: string, baseBranch: string, db: Db = this.prisma,
  ): Promise<PullIssueRow | null> {
    return db.issue.findFirst({
      where: { repoId, isPull: true, state: 'open', pullRequest: { headRepoId, headBranch, baseBranch, merged: false } },
      include: ISSUE_INCLUDE,
      orderBy: { index: 'desc' },
    }) as Promise<PullIssueRow | null>;
  }

  /** Any state (`GET …/pulls/{base}/{head}`). */
  findLatestByBranches(
    repoId: number, headRepoId: number | null, headBranch: string, baseBranch: string, db: Db = this.prisma,
  ): Promise<PullIssueRow | null> {
    return db.issue.findFirst({
      where: { repoId, isPull: true, pullRequest: { headRepoId, headBranch, baseBranch } },
      include: ISSUE_INCLUDE,
      orderBy: [{ state: 'desc' }, { index: 'desc' }],
    }) as Promise<PullIssueRow | null>;
  }

  async list(
    repoId: number,
    filter: { state: 'open' | 'closed' | 'all'; baseBranch?: string; milestoneId?: number; labelIds?: number[]; posterId?: number },
    sort: PullSort | undefined,
    paging: Paging,
    db: Db = this.prisma,
  ) {
    const where: Prisma.IssueWhereInput = { repoId, isPull: true };
    if (filter.state !== 'all') where.state = filter.state;
    if (filter.baseBranch) where.pullRequest = { baseBranch: filter.baseBranch };
    if (filter.milestoneId) where.milestoneId = filter.milestoneId;
    if (filter.posterId) where.posterId = filter.posterId;
    if (filter.labelIds?.length) where.AND = filter.labelIds.map((labelId) => ({ labels: { some: { labelId } } }));
    const [items, total] = await Promise.all([
      db.issue.findMany({
        where,
        include: ISSUE_INCLUDE,
        orderBy: ORDER[sort ?? 'newest'],
        skip: paging.skip,
        take: paging.take,
      }),
      db.issue.count({ where }),
    ]);
    return { items: items as PullIssueRow[], total };
  }

  /** Pulls with a stored result for this base are left alone: a redelivered event must not undo finished checks. */
  async markBaseMoved(repoId: number, branch: string, newSha: string, db: Db = this.prisma): Promise<CandidateRow[]> {
    const rows = await db.$queryRaw<CandidateSqlRow[]>`
      UPDATE "repo".pull_requests pr
         SET status = 'checking', base_sha = ${newSha}
        FROM "repo".issues i
       WHERE i.id = pr.issue_id
         AND pr.repo_id = ${repoId}::int
         AND pr.base_branch = ${branch}
         AND i.state = 'open'
         AND NOT pr.merged
         AND (pr.base_sha <> ${newSha} OR pr.status = 'checking')
   RETURNING pr.id, pr.repo_id, i.index, i.updated_at, pr.base_sha, pr.head_sha`;
    return rows.map(toCandidateRow);
  }

  /** Its own and forks' pulls into their base, unlocked: looked up before a recording renders them. */
  findOpenFromHeads(repoId: number, branches: string[], db: Db = this.prisma): Promise<PullIssueRow[]> {
    return db.issue.findMany({
      where: { isPull: true, state: 'open', pullRequest: { ...headIn(repoId), headBranch: { in: branches }, merged: false } },
      include: ISSUE_INCLUDE,
    }) as Promise<PullIssueRow[]>;
  }

  /** A fork's into its base, oldest first. */
  findOpenFromHeadRepo(repoId: number, db: Db = this.prisma): Promise<PullIssueRow[]> {
    return db.issue.findMany({
      where: { isPull: true, state: 'open', pullRequest: { headRepoId: repoId, repoId: { not: repoId }, merged: false } },
      include: { pullRequest: true },
      orderBy: [{ repoId: 'asc' }, { index: 'asc' }],
    }) as Promise<PullIssueRow[]>;
  }

  /** In any repository: what deleting the branch closes (Gitea's `CloseBranchPulls`). */
  findOpenTouching(repoId: number, branch: string, db: Db = this.prisma): Promise<PullIssueRow[]> {
    return db.issue.findMany({
      where: {
        isPull: true,
        state: 'open',
        pullRequest: {
          merged: false,
          OR: [{ ...headIn(repoId), headBranch: branch }, { repoId, baseBranch: branch }],
        },
      },
      include: { pullRequest: true },
      orderBy: [{ repoId: 'asc' }, { index: 'asc' }],
    }) as Promise<PullIssueRow[]>;
  }

  /** Gitea moves bases; heads too here. */
  async followRenamedBranch(tx: Tx, repoId: number, from: string, to: string): Promise<void> {
    await tx.pullRequest.updateMany({ where: { repoId, merged: false, baseBranch: from }, data: { baseBranch: to } });
    await tx.pullRequest.updateMany({ where: { repoId, merged: false, headBranch: from }, data: { headBranch: to } });
  }

  /** Ref-updates' order: branch locks before row locks. */
  async lockBranch(tx: Tx, repoId: number, branch: string): Promise<void> {
    await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${repoId}::int, hashtext(${branch}))) AS l`;
  }

  /** Read back for its event. */
  async touchIssue(tx: Tx, issueId: number, now: Date): Promise<PullIssueRow> {
    await tx.issue.update({ where: { id: issueId }, data: { updatedAt: now } });
    return (await tx.issue.findUniqueOrThrow({ where: { id: issueId }, include: ISSUE_INCLUDE })) as PullIssueRow;
  }

  async branchesInUse(db: Db, repoId: number, branches: string[]): Promise<Set<string>> {
    const rows = await db.$queryRaw<{ branch: string }[]>`
      SELECT DISTINCT b.branch FROM unnest(${branches}::text[]) AS b(branch)
       WHERE EXISTS (
         SELECT 1 FROM "repo".pull_requests pr JOIN "repo".issues i ON i.id = pr.issue_id
          WHERE i.state = 'open' AND NOT pr.merged
            AND ((pr.repo_id = ${repoId}::int AND pr.base_branch = b.branch)
              OR (pr.head_branch = b.branch
                  AND (pr.head_repo_id = ${repoId}::int OR (pr.repo_id = ${repoId}::int AND pr.head_repo_id IS NULL)))))`;
    return new Set(rows.map((r) => r.branch));
  }

  /** What a restart queues again (see `PendingChecks`); `since` null: any. */
  async pendingChecks(since: Date | null, limit: number, db: Db = this.prisma): Promise<CandidateRow[]> {
    const rows = await db.$queryRaw<CandidateSqlRow[]>`
      SELECT pr.id, pr.repo_id, i.index, i.updated_at, pr.base_sha, pr.head_sha
        FROM "repo".pull_requests pr JOIN "repo".issues i ON i.id = pr.issue_id
       WHERE pr.status = 'checking' AND i.state = 'open' AND NOT pr.merged
         AND (${since}::timestamptz IS NULL OR i.updated_at > ${since}::timestamptz)
       ORDER BY i.updated_at DESC
       LIMIT ${limit}::int`;
    return rows.map(toCandidateRow);
  }

  /** Locked for the transaction. */
  async openFromHead(tx: Tx, repoId: number, branch: string): Promise<PullIssueRow[]> {
    const ids = await tx.$queryRaw<{ id: number }[]>`
      SELECT pr.id FROM "repo".pull_requests pr JOIN "repo".issues i ON i.id = pr.issue_id
       WHERE (pr.head_repo_id = ${repoId}::int OR (pr.repo_id = ${repoId}::int AND pr.head_repo_id IS NULL))
         AND pr.head_branch = ${branch} AND i.state = 'open' AND NOT pr.merged
       ORDER BY pr.id FOR UPDATE OF pr`;
    if (ids.length === 0) return [];
    return (await tx.issue.findMany({
      where: { pullRequest: { id: { in: ids.map((r) => r.id) } } },
      include: ISSUE_INCLUDE,
      orderBy: { id: 'asc' },
    })) as PullIssueRow[];
  }

  countOpenUsingBranch(repoId: number, branch: string, exceptPullId: number, db: Db = this.prisma): Promise<number> {
    return db.pullRequest.count({
      where: {
        id: { not: exceptPullId },
        merged: false,
        issue: { state: 'open' },
        OR: [{ ...headIn(repoId), headBranch: branch }, { repoId, baseBranch: branch }],
      },
    });
  }

  setAllowMaintainerEdit(pullId: number, allow: boolean, db: Db = this.prisma): Promise<PullRequest> {
    return db.pullRequest.update({ where: { id: pullId }, data: { allowMaintainerEdit: allow } });
  }

  setCommits(tx: Tx, pullId: number, data: { baseSha?: string; headSha?: string; mergeBase?: string }): Promise<PullRequest> {
    return tx.pullRequest.update({ where: { id: pullId }, data: { ...data, status: 'checking' } });
  }

  async checkTarget(pullId: number, db: Db = this.prisma): Promise<CheckTargetRow | null> {
    const rows = await db.$queryRaw<
      { id: number; repo_id: number; owner_name: string; name: string; base_sha: string; head_sha: string; status: string }[]
    >`
      SELECT pr.id, pr.repo_id, r.owner_name, r.name, pr.base_sha, pr.head_sha, pr.status
        FROM "repo".pull_requests pr
        JOIN "repo".issues i ON i.id = pr.issue_id
        JOIN "repo".repositories r ON r.id = pr.repo_id
       WHERE pr.id = ${pullId}::int AND i.state = 'open' AND NOT pr.merged`;
    const r = rows[0];
    return r
      ? { id: r.id, repoId: r.repo_id, ownerName: r.owner_name, repoName: r.name, baseSha: r.base_sha, headSha: r.head_sha, status: r.status }
      : null;
  }

  /** One plain statement: the ORM's relation load costs more than the statement on this path. */
  async findForReports(pullIds: number[], db: Db = this.prisma): Promise<PullIssueRow[]> {
    if (pullIds.length === 0) return [];
    const rows = await db.$queryRaw<Record<string, unknown>[]>`
      SELECT i.id, i.repo_id AS "repoId", i.index, i.is_pull AS "isPull", i.title, i.body, i.state,
             i.is_locked AS "isLocked", i.lock_reason AS "lockReason", i.poster_id AS "posterId",
             i.num_comments AS "numComments", i.created_at AS "createdAt", i.updated_at AS "updatedAt",
             i.closed_at AS "closedAt", i.milestone_id AS "milestoneId",
             pr.id AS "pr.id", pr.issue_id AS "pr.issueId", pr.repo_id AS "pr.repoId", pr.head_repo_id AS "pr.headRepoId",
             pr.head_branch AS "pr.headBranch", pr.allow_maintainer_edit AS "pr.allowMaintainerEdit",
             pr.base_branch AS "pr.baseBranch", pr.head_sha AS "pr.headSha", pr.base_sha AS "pr.baseSha",
             pr.merge_base AS "pr.mergeBase", pr.status AS "pr.status", pr.conflicted_files AS "pr.conflictedFiles",
             pr.check_message AS "pr.checkMessage", pr.checked_base_sha AS "pr.checkedBaseSha",
             pr.checked_head_sha AS "pr.checkedHeadSha", pr.checked_at AS "pr.checkedAt", pr.merged AS "pr.merged",
             pr.merged_at AS "pr.mergedAt", pr.merged_by_id AS "pr.mergedById", pr.merge_commit_sha AS "pr.mergeCommitSha",
             pr.merge_style AS "pr.mergeStyle"
        FROM "repo".pull_requests pr JOIN "repo".issues i ON i.id = pr.issue_id
       WHERE pr.id = ANY(${pullIds}::int[])`;
    return rows.map((r) => {
      const issue: Record<string, unknown> = {};
      const pull: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) {
        if (k.startsWith('pr.')) pull[k.slice(3)] = v;
        else issue[k] = v;
      }
      return { ...issue, pullRequest: pull } as unknown as PullIssueRow;
    });
  }

  /** The outbox row only where the update applied. Synchronous commit kept: a lost result loses its webhook. */
  async storeResultsWithEvents(results: StoredResult[], now: Date, db: Db = this.prisma): Promise<Set<number>> {
    if (results.length === 0) return new Set();
    const input = JSON.stringify(
      results.map((r) => ({
        pull_id: r.pullId,
        status: r.status,
        files: r.status === 'conflict' ? r.files : [],
        message: r.status === 'error' ? (r.message ?? 'the check failed') : null,
        base_sha: r.baseSha,
        head_sha: r.headSha,
        merge_base: r.mergeBase || null,
        event_id: r.event.id,
        subject: r.event.subject,
        payload: r.event.payload,
        traceparent: r.event.traceparent,
      })),
    );
    const rows = await db.$queryRaw<{ pull_id: number }[]>`
      WITH x AS (
        SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS x(
          pull_id int, status text, files text[], message text, base_sha text, head_sha text, merge_base text,
          event_id uuid, subject text, payload jsonb, traceparent text)),
      upd AS (
        UPDATE "repo".pull_requests pr
           SET status = x.status, conflicted_files = x.files, check_message = x.message,
               checked_base_sha = x.base_sha, checked_head_sha = x.head_sha, checked_at = ${now},
               merge_base = COALESCE(x.merge_base, pr.merge_base)
          FROM x
         WHERE pr.id = x.pull_id AND pr.base_sha = x.base_sha AND pr.head_sha = x.head_sha AND NOT pr.merged
           AND (pr.status = 'checking' OR pr.checked_base_sha IS DISTINCT FROM x.base_sha
                OR pr.checked_head_sha IS DISTINCT FROM x.head_sha)
     RETURNING pr.id),
      ins AS (
        INSERT INTO "repo".outbox_events (id, subject, payload, traceparent)
        SELECT x.event_id, x.subject, x.payload, x.traceparent FROM x JOIN upd ON upd.id = x.pull_id
        RETURNING id)
      SELECT x.pull_id FROM x JOIN ins ON ins.id = x.event_id`;
    return new Set(rows.map((r) => r.pull_id));
  }

  /** True when this call merged it. */
  async markMerged(
    tx: Tx,
    pullId: number,
    data: { mergedById: number; mergeCommitSha: string; style: string; now: Date },
  ): Promise<boolean> {
    const changed = await tx.pullRequest.updateMany({
      where: { id: pullId, merged: false },
      data: {
        merged: true,
        mergedAt: data.now,
        mergedById: data.mergedById,
        mergeCommitSha: data.mergeCommitSha,
        mergeStyle: data.style,
      },
    });
    return changed.count === 1;
  }
}

function headIn(repoId: number): Prisma.PullRequestWhereInput {
  return { OR: [{ headRepoId: repoId }, { repoId, headRepoId: null }] };
}

interface CandidateSqlRow {
  id: number;
  repo_id: number;
  index: number;
  updated_at: Date;
  base_sha: string;
  head_sha: string;
}

function toCandidateRow(r: CandidateSqlRow): CandidateRow {
  return { id: r.id, repoId: r.repo_id, index: r.index, issueUpdatedAt: r.updated_at, baseSha: r.base_sha, headSha: r.head_sha };
}
