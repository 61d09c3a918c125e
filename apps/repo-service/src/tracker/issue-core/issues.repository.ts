import { Injectable } from '@nestjs/common';
import type { CommentType, IssueState, Paging } from '@cairn/contracts';
import type { Issue, IssueComment, Label, Milestone, Prisma, PullRequest } from '../../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../../foundation/prisma/prisma.service.js';

/** Rows built by hand right after an insert may lack labels and milestone: they render as none. */
export type IssueRow = Issue & {
  pullRequest: PullRequest | null;
  labels?: { label: Label }[];
  milestone?: Milestone | null;
  /** Oldest assignment first. */
  assignees?: { assigneeId: number }[];
};
export type CommentRow = IssueComment;

export interface IssueFilter {
  state: 'open' | 'closed' | 'all';
  /** Undefined: both. */
  isPull?: boolean;
  keyword?: string;
  assigneeId?: number;
  posterId?: number;
  /** Every one of them. */
  labelIds?: number[];
  /** Any of them. */
  milestoneIds?: number[];
}

export interface IssueChanges {
  title?: string;
  body?: string;
}

/** Used by the pull-request queries too. */
export const ISSUE_INCLUDE = {
  pullRequest: true,
  labels: { include: { label: true }, orderBy: { label: { name: 'asc' } } },
  milestone: true,
  assignees: { select: { assigneeId: true }, orderBy: { id: 'asc' } },
} as const satisfies Prisma.IssueInclude;

@Injectable()
export class IssuesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Shared by issues and pulls; the counter row stays locked until commit, so concurrent creations never collide. */
  async allocateIndex(tx: Tx, repoId: number): Promise<number> {
    const rows = await tx.$queryRaw<{ last_index: number }[]>`
      INSERT INTO "repo".issue_index_counters (repo_id, last_index) VALUES (${repoId}::int, 1)
      ON CONFLICT (repo_id) DO UPDATE SET last_index = "repo".issue_index_counters.last_index + 1
      RETURNING last_index`;
    return Number(rows[0].last_index);
  }

  async insertIssue(
    tx: Tx,
    data: { repoId: number; index: number; isPull: boolean; title: string; body: string; posterId: number; closed: boolean; now: Date },
  ): Promise<Issue> {
    const issue = await tx.issue.create({
      data: {
        repoId: data.repoId,
        index: data.index,
        isPull: data.isPull,
        title: data.title,
        body: data.body,
        posterId: data.posterId,
        state: data.closed ? 'closed' : 'open',
        closedAt: data.closed ? data.now : null,
        createdAt: data.now,
        updatedAt: data.now,
      },
    });
    await this.bumpRepoCounters(tx, data.repoId, data.isPull, 1, data.closed ? 1 : 0);
    return issue;
  }

  async bumpRepoCounters(tx: Tx, repoId: number, isPull: boolean, total: number, closed: number): Promise<void> {
    if (total === 0 && closed === 0) return;
    if (isPull) {
      await tx.$executeRaw`UPDATE "repo".repositories SET num_pulls = num_pulls + ${total}::int,
        num_closed_pulls = num_closed_pulls + ${closed}::int WHERE id = ${repoId}::int`;
    } else {
      await tx.$executeRaw`UPDATE "repo".repositories SET num_issues = num_issues + ${total}::int,
        num_closed_issues = num_closed_issues + ${closed}::int WHERE id = ${repoId}::int`;
    }
  }

  findByIndex(repoId: number, index: number, db: Db = this.prisma): Promise<IssueRow | null> {
    return db.issue.findUnique({ where: { repoId_index: { repoId, index } }, include: ISSUE_INCLUDE });
  }

  findById(repoId: number, id: number, db: Db = this.prisma): Promise<IssueRow | null> {
    return db.issue.findFirst({ where: { id, repoId }, include: ISSUE_INCLUDE });
  }

  /** Serialises state changes of one issue. */
  async lockRow(tx: Tx, issueId: number): Promise<void> {
    await tx.$queryRaw`SELECT id FROM "repo".issues WHERE id = ${issueId}::int FOR UPDATE`;
  }

  async list(repoId: number, filter: IssueFilter, paging: Paging, db: Db = this.prisma) {
    const where: Prisma.IssueWhereInput = { repoId };
    if (filter.state !== 'all') where.state = filter.state;
    if (filter.isPull !== undefined) where.isPull = filter.isPull;
    if (filter.assigneeId !== undefined) where.assignees = { some: { assigneeId: filter.assigneeId } };
    if (filter.posterId !== undefined) where.posterId = filter.posterId;
    if (filter.keyword) {
      where.OR = [
        { title: { contains: filter.keyword, mode: 'insensitive' } },
        { body: { contains: filter.keyword, mode: 'insensitive' } },
      ];
    }
    if (filter.labelIds) where.AND = filter.labelIds.map((labelId) => ({ labels: { some: { labelId } } }));
    if (filter.milestoneIds) where.milestoneId = { in: filter.milestoneIds };
    const [items, total] = await Promise.all([
      db.issue.findMany({ where, include: ISSUE_INCLUDE, orderBy: { index: 'desc' }, skip: paging.skip, take: paging.take }),
      db.issue.count({ where }),
    ]);
    return { items: items as IssueRow[], total };
  }

  async update(tx: Tx, id: number, data: Prisma.IssueUpdateInput): Promise<IssueRow> {
    return tx.issue.update({ where: { id }, data, include: ISSUE_INCLUDE });
  }

  /** True when it changed, so repeated closes add no timeline entry and counters move once. */
  async setState(tx: Tx, issue: { id: number; repoId: number; isPull: boolean }, state: IssueState, now: Date): Promise<boolean> {
    const changed = await tx.issue.updateMany({
      where: { id: issue.id, state: state === 'open' ? 'closed' : 'open' },
      data: { state, closedAt: state === 'closed' ? now : null, updatedAt: now },
    });
    if (changed.count === 0) return false;
    await this.bumpRepoCounters(tx, issue.repoId, issue.isPull, 0, state === 'closed' ? 1 : -1);
    await this.recountMilestoneOf(tx, issue.id);
    return true;
  }

  /** Gitea's `UpdateMilestoneCounters`, recomputed from the issues so counters never drift. */
  async recountMilestone(tx: Tx, milestoneId: number | null | undefined): Promise<void> {
    if (!milestoneId) return;
    await tx.$executeRaw`UPDATE "repo".milestones m SET
      num_issues = (SELECT count(*) FROM "repo".issues i WHERE i.milestone_id = m.id)::int,
      num_closed_issues = (SELECT count(*) FROM "repo".issues i WHERE i.milestone_id = m.id AND i.state = 'closed')::int
      WHERE m.id = ${milestoneId}::int`;
  }

  async recountMilestoneOf(tx: Tx, issueId: number): Promise<void> {
    const row = await tx.issue.findUnique({ where: { id: issueId }, select: { milestoneId: true } });
    await this.recountMilestone(tx, row?.milestoneId);
  }

  /** Null: out of any; keeps both milestones' counters right. */
  async setMilestone(tx: Tx, issueId: number, milestoneId: number | null, now: Date): Promise<{ before: number | null }> {
    const row = await tx.issue.findUniqueOrThrow({ where: { id: issueId }, select: { milestoneId: true } });
    if (row.milestoneId === milestoneId) return { before: row.milestoneId };
    await tx.issue.update({ where: { id: issueId }, data: { milestoneId, updatedAt: now } });
    await this.recountMilestone(tx, row.milestoneId);
    await this.recountMilestone(tx, milestoneId);
    return { before: row.milestoneId };
  }

  /** One conditional statement, so repeats are no-ops. */
  async setLocked(tx: Tx, issueId: number, locked: boolean, reason: string | null, now: Date): Promise<boolean> {
    const changed = await tx.issue.updateMany({
      where: { id: issueId, isLocked: !locked },
      data: { isLocked: locked, lockReason: locked ? reason : null, updatedAt: now },
    });
    return changed.count === 1;
  }

  async touch(tx: Tx, issueId: number, now: Date): Promise<void> {
    await tx.issue.update({ where: { id: issueId }, data: { updatedAt: now } });
  }

  async setAssignees(tx: Tx, issueId: number, ids: number[]): Promise<{ added: number[]; removed: number[] }> {
    const current = (await tx.issueAssignee.findMany({ where: { issueId }, select: { assigneeId: true } })).map((a) => a.assigneeId);
    const added = ids.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !ids.includes(id));
    if (removed.length) await tx.issueAssignee.deleteMany({ where: { issueId, assigneeId: { in: removed } } });
    if (added.length) await tx.issueAssignee.createMany({ data: added.map((assigneeId) => ({ issueId, assigneeId })), skipDuplicates: true });
    return { added, removed };
  }


  async addComment(
    tx: Tx,
    data: {
      issueId: number; repoId: number; type: CommentType; posterId: number; body: string; now: Date;
      oldTitle?: string; newTitle?: string; assigneeId?: number; removedAssignee?: boolean;
      /** `label`: body `1` means added. */
      labelId?: number; milestoneId?: number | null; oldMilestoneId?: number | null;
    },
  ): Promise<CommentRow> {
    const row = await tx.issueComment.create({
      data: {
        issueId: data.issueId,
        repoId: data.repoId,
        type: data.type,
        posterId: data.posterId,
        body: data.body,
        oldTitle: data.oldTitle,
        newTitle: data.newTitle,
        assigneeId: data.assigneeId,
        removedAssignee: data.removedAssignee ?? false,
        labelId: data.labelId,
        milestoneId: data.milestoneId,
        oldMilestoneId: data.oldMilestoneId,
        createdAt: data.now,
        updatedAt: data.now,
      },
    });
    if (data.type === 'comment') {
      await tx.issue.update({ where: { id: data.issueId }, data: { numComments: { increment: 1 }, updatedAt: data.now } });
    }
    return row;
  }

  findComment(repoId: number, id: number, db: Db = this.prisma): Promise<CommentRow | null> {
    return db.issueComment.findFirst({ where: { id, repoId } });
  }

  updateComment(tx: Tx, id: number, body: string, now: Date): Promise<CommentRow> {
    return tx.issueComment.update({ where: { id }, data: { body, updatedAt: now } });
  }

  async deleteComment(tx: Tx, comment: CommentRow): Promise<boolean> {
    const gone = await tx.issueComment.deleteMany({ where: { id: comment.id } });
    if (gone.count === 0) return false;
    if (comment.type === 'comment') {
      await tx.issue.update({ where: { id: comment.issueId }, data: { numComments: { decrement: 1 } } });
    }
    return true;
  }

  async timelineRefs(labelIds: number[], milestoneIds: number[]): Promise<{ labels: Label[]; milestones: Milestone[] }> {
    const [labels, milestones] = await Promise.all([
      labelIds.length ? this.prisma.label.findMany({ where: { id: { in: labelIds } } }) : [],
      milestoneIds.length ? this.prisma.milestone.findMany({ where: { id: { in: milestoneIds } } }) : [],
    ]);
    return { labels, milestones };
  }

  listComments(issueId: number, types?: CommentType[], db: Db = this.prisma): Promise<CommentRow[]> {
    return db.issueComment.findMany({
      where: { issueId, ...(types ? { type: { in: types } } : {}) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }
}
