import { Injectable } from '@nestjs/common';
import type { MergeableState, Paging, PullSort } from '@cairn/contracts';
import type { Prisma, PullRequest } from '../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../prisma/prisma.service.js';
import type { PullIssueRow } from './pull.mapper.js';

/** A pull request returned to be checked (see `PullCheckCandidate`). */
export interface CandidateRow {
  id: number;
  repoId: number;
  index: number;
  issueUpdatedAt: Date;
  baseSha: string;
  headSha: string;
}

/** What a check needs: the pull request and where its repository lives. */
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

/** Persistence of pull requests and their mergeability; every query is scoped by repository or by id. */
@Injectable()
export class PullsRepository {
  constructor(private readonly prisma: PrismaService) {}

  insertPull(
    tx: Tx,
    data: { issueId: number; repoId: number; headBranch: string; baseBranch: string; headSha: string; baseSha: string; mergeBase: string },
  ): Promise<PullRequest> {
    return tx.pullRequest.create({ data: { ...data, status: 'checking' } });
  }

  /** The open (unmerged) pull request from `head` into `base`, if any. */
  findOpenByBranches(repoId: number, headBranch: string, baseBranch: string, db: Db = this.prisma): Promise<PullIssueRow | null> {
    return db.issue.findFirst({
      where: { repoId, isPull: true, state: 'open', pullRequest: { headBranch, baseBranch, merged: false } },
      include: { pullRequest: true },
      orderBy: { index: 'desc' },
    }) as Promise<PullIssueRow | null>;
  }

  /** The most recent pull request from `head` into `base` in any state (`GET …/pulls/{base}/{head}`). */
  findLatestByBranches(repoId: number, headBranch: string, baseBranch: string, db: Db = this.prisma): Promise<PullIssueRow | null> {
    return db.issue.findFirst({
      where: { repoId, isPull: true, pullRequest: { headBranch, baseBranch } },
      include: { pullRequest: true },
      orderBy: [{ state: 'desc' }, { index: 'desc' }],
    }) as Promise<PullIssueRow | null>;
  }

  async list(
    repoId: number,
    filter: { state: 'open' | 'closed' | 'all'; baseBranch?: string },
    sort: PullSort | undefined,
    paging: Paging,
    db: Db = this.prisma,
  ) {
    const where: Prisma.IssueWhereInput = { repoId, isPull: true };
    if (filter.state !== 'all') where.state = filter.state;
    if (filter.baseBranch) where.pullRequest = { baseBranch: filter.baseBranch };
    const [items, total] = await Promise.all([
      db.issue.findMany({
        where,
        include: { pullRequest: true },
        orderBy: ORDER[sort ?? 'newest'],
        skip: paging.skip,
        take: paging.take,
      }),
      db.issue.count({ where }),
    ]);
    return { items: items as PullIssueRow[], total };
  }

  /**
   * A branch moved: every open pull request into it becomes `checking` with the new base, in **one statement**, and
   * is returned. Pull requests whose result for this base is already stored are left alone (a redelivered event
   * must not undo finished checks).
   */
  async markBaseMoved(repoId: number, branch: string, newSha: string, db: Db = this.prisma): Promise<CandidateRow[]> {
    const rows = await db.$queryRaw<
      { id: number; repo_id: number; index: number; updated_at: Date; base_sha: string; head_sha: string }[]
    >`
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
    return rows.map((r) => ({
      id: r.id,
      repoId: r.repo_id,
      index: r.index,
      issueUpdatedAt: r.updated_at,
      baseSha: r.base_sha,
      headSha: r.head_sha,
    }));
  }

  /** Open pull requests from a branch, locked for the transaction. */
  async openFromHead(tx: Tx, repoId: number, branch: string): Promise<PullIssueRow[]> {
    const ids = await tx.$queryRaw<{ id: number }[]>`
      SELECT pr.id FROM "repo".pull_requests pr JOIN "repo".issues i ON i.id = pr.issue_id
       WHERE pr.repo_id = ${repoId}::int AND pr.head_branch = ${branch} AND i.state = 'open' AND NOT pr.merged
       ORDER BY pr.id FOR UPDATE OF pr`;
    if (ids.length === 0) return [];
    return (await tx.issue.findMany({
      where: { pullRequest: { id: { in: ids.map((r) => r.id) } } },
      include: { pullRequest: true },
      orderBy: { id: 'asc' },
    })) as PullIssueRow[];
  }

  /** Open pull requests using a branch as head or base (other than `exceptPullId`). */
  countOpenUsingBranch(repoId: number, branch: string, exceptPullId: number, db: Db = this.prisma): Promise<number> {
    return db.pullRequest.count({
      where: {
        repoId,
        id: { not: exceptPullId },
        merged: false,
        issue: { state: 'open' },
        OR: [{ headBranch: branch }, { baseBranch: branch }],
      },
    });
  }

  /** New commits for a pull request: it is `checking` again. */
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

  /**
   * Stores a check result and its event in **one statement** (a CTE: the outbox row is inserted only if the update
   * applied): the result must be for the pull request's current commits and not stored already. True when stored.
   */
  async storeResultWithEvent(
    pullId: number,
    result: { status: Exclude<MergeableState, 'checking'>; files: string[]; baseSha: string; headSha: string; mergeBase?: string; message?: string },
    now: Date,
    event: { id: string; subject: string; payload: object },
    db: Db = this.prisma,
  ): Promise<boolean> {
    const files = result.status === 'conflict' ? result.files : [];
    const message = result.status === 'error' ? (result.message ?? 'the check failed') : null;
    const rows = await db.$queryRaw<{ id: string }[]>`
      WITH upd AS (
        UPDATE "repo".pull_requests
           SET status = ${result.status}, conflicted_files = ${files}::text[], check_message = ${message},
               checked_base_sha = ${result.baseSha}, checked_head_sha = ${result.headSha}, checked_at = ${now},
               merge_base = COALESCE(${result.mergeBase ?? null}::text, merge_base)
         WHERE id = ${pullId}::int AND base_sha = ${result.baseSha} AND head_sha = ${result.headSha} AND NOT merged
           AND (status = 'checking' OR checked_base_sha IS DISTINCT FROM ${result.baseSha}
                OR checked_head_sha IS DISTINCT FROM ${result.headSha})
     RETURNING id)
      INSERT INTO "repo".outbox_events (id, subject, payload)
      SELECT ${event.id}::uuid, ${event.subject}, ${JSON.stringify(event.payload)}::jsonb FROM upd
      RETURNING id`;
    return rows.length === 1;
  }

  /** Marks a pull request merged unless it already is: true when this call merged it. */
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
