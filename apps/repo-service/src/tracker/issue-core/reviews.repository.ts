import { Injectable } from '@nestjs/common';
import type { Paging } from '@cairn/contracts';
import { PrismaService, type Db } from '../../foundation/prisma/prisma.service.js';
import type { PullReview, PullReviewComment } from '../../generated/prisma/client.js';

/** Stored review kinds (Gitea's `ReviewType`); `request` is a review request, `pending` a draft. */
export const REVIEW_TYPES = ['pending', 'approve', 'reject', 'comment', 'request'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];

export type ReviewRow = PullReview & { _count: { comments: number } };
export type ReviewCommentRow = PullReviewComment;

const WITH_COUNT = { _count: { select: { comments: true } } } as const;
/** The kinds that make up a reviewer's standing on a pull request (the latest one wins; comments do not count). */
const STANDING_TYPES: ReviewType[] = ['approve', 'reject', 'request'];

@Injectable()
export class ReviewsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Oldest first; pending reviews only for `viewerId` (their author), none for `null`. */
  async list(issueId: number, viewerId: number | null, paging: Paging, db: Db = this.prisma) {
    const where = {
      issueId,
      OR: [{ type: { not: 'pending' } }, ...(viewerId ? [{ type: 'pending', reviewerId: viewerId }] : [])],
    };
    const [rows, total] = await Promise.all([
      db.pullReview.findMany({ where, include: WITH_COUNT, orderBy: { id: 'asc' }, skip: paging.skip, take: paging.take }),
      db.pullReview.count({ where }),
    ]);
    return { rows: rows as ReviewRow[], total };
  }

  find(issueId: number, id: number, db: Db = this.prisma): Promise<ReviewRow | null> {
    return db.pullReview.findFirst({ where: { id, issueId }, include: WITH_COUNT }) as Promise<ReviewRow | null>;
  }

  /** The actor's pending review of the pull request (there is at most one). */
  findPending(issueId: number, reviewerId: number, db: Db = this.prisma): Promise<ReviewRow | null> {
    return db.pullReview.findFirst({
      where: { issueId, reviewerId, type: 'pending' },
      include: WITH_COUNT,
      orderBy: { id: 'desc' },
    }) as Promise<ReviewRow | null>;
  }

  insert(db: Db, data: { repoId: number; issueId: number; type: ReviewType; reviewerId: number; reviewerTeamId?: number; body?: string; commitId?: string; official?: boolean }) {
    return db.pullReview.create({ data, include: WITH_COUNT }) as Promise<ReviewRow>;
  }

  update(db: Db, id: number, data: Partial<Pick<PullReview, 'type' | 'body' | 'commitId' | 'official' | 'dismissed'>>) {
    return db.pullReview.update({ where: { id }, data: { ...data, updatedAt: new Date() }, include: WITH_COUNT }) as Promise<ReviewRow>;
  }

  async remove(db: Db, id: number): Promise<void> {
    await db.pullReview.delete({ where: { id } });
  }

  /** Only the reviewer's newest review stays official (Gitea): earlier ones stop counting. */
  async unofficialEarlier(db: Db, issueId: number, reviewerId: number, exceptId: number): Promise<void> {
    await db.pullReview.updateMany({ where: { issueId, reviewerId, id: { not: exceptId } }, data: { official: false } });
  }

  /** Dismisses the reviewer's earlier approvals and change requests (`priors`). */
  async dismissEarlier(db: Db, issueId: number, reviewerId: number, beforeId: number): Promise<void> {
    await db.pullReview.updateMany({
      where: { issueId, reviewerId, id: { lt: beforeId }, type: { in: ['approve', 'reject'] } },
      data: { dismissed: true },
    });
  }

  addComments(db: Db, reviewId: number, posterId: number, commitId: string, comments: { path: string; line: number; body: string }[]) {
    if (comments.length === 0) return Promise.resolve();
    return db.pullReviewComment.createMany({ data: comments.map((c) => ({ ...c, reviewId, posterId, commitId })) });
  }

  comments(reviewId: number, db: Db = this.prisma): Promise<ReviewCommentRow[]> {
    return db.pullReviewComment.findMany({ where: { reviewId }, orderBy: { id: 'asc' } });
  }

  /** Each reviewer's latest standing review per pull request: open requests and counting approvals are read from it. */
  async standings(issueIds: number[], db: Db = this.prisma): Promise<Map<number, ReviewRow[]>> {
    const out = new Map<number, ReviewRow[]>();
    if (issueIds.length === 0) return out;
    const rows = (await db.pullReview.findMany({
      where: { issueId: { in: issueIds }, type: { in: STANDING_TYPES }, reviewerId: { gt: 0 } },
      include: WITH_COUNT,
      orderBy: { id: 'asc' },
    })) as ReviewRow[];
    const latest = new Map<string, ReviewRow>();
    for (const r of rows) latest.set(`${r.issueId}:${r.reviewerId}`, r);
    for (const r of latest.values()) {
      const list = out.get(r.issueId) ?? [];
      list.push(r);
      out.set(r.issueId, list);
    }
    return out;
  }

  async teamRequests(issueIds: number[], db: Db = this.prisma): Promise<Map<number, ReviewRow[]>> {
    const out = new Map<number, ReviewRow[]>();
    if (issueIds.length === 0) return out;
    const rows = (await db.pullReview.findMany({
      where: { issueId: { in: issueIds }, type: 'request', reviewerTeamId: { gt: 0 } },
      include: WITH_COUNT,
      orderBy: { id: 'asc' },
    })) as ReviewRow[];
    for (const r of rows) out.set(r.issueId, [...(out.get(r.issueId) ?? []), r]);
    return out;
  }

  /** Approvals that count (Gitea's `GetGrantedApprovalsCount`): official, not dismissed, latest of their reviewer. */
  officialApprovals(issueId: number, db: Db = this.prisma): Promise<{ commitId: string }[]> {
    return db.pullReview.findMany({
      where: { issueId, type: 'approve', official: true, dismissed: false },
      select: { commitId: true },
    });
  }
}
