import { Injectable } from '@nestjs/common';
import type { NotificationStatus, Paging } from '@cairn/contracts';
import type { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';

/** A thread with what rendering it needs from the issue. */
export type NotificationRow = Prisma.NotificationGetPayload<{ include: { issue: { include: { pullRequest: true } } } }>;

const WITH_ISSUE = { issue: { include: { pullRequest: true } } } as const;

/** Which threads of one user a listing or a bulk status change covers. */
export interface NotificationFilter {
  userId: number;
  repoId?: number;
  /** Absent: every status. */
  statuses?: NotificationStatus[];
  /** Absent: issues and pull requests. */
  isPull?: boolean;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

@Injectable()
export class NotificationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  private where(f: NotificationFilter): Prisma.NotificationWhereInput {
    const updatedAt: Prisma.DateTimeFilter = {};
    if (f.updatedAfter) updatedAt.gt = f.updatedAfter;
    if (f.updatedBefore) updatedAt.lt = f.updatedBefore;
    return {
      userId: f.userId,
      ...(f.repoId !== undefined ? { repoId: f.repoId } : {}),
      ...(f.statuses ? { status: { in: f.statuses } } : {}),
      ...(f.isPull !== undefined ? { issue: { isPull: f.isPull } } : {}),
      ...(f.updatedAfter || f.updatedBefore ? { updatedAt } : {}),
    };
  }

  async list(f: NotificationFilter, paging: Paging): Promise<{ rows: NotificationRow[]; total: number }> {
    const where = this.where(f);
    const [rows, total] = await Promise.all([
      this.prisma.notification.findMany({
        where, include: WITH_ISSUE, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], skip: paging.skip, take: paging.take,
      }),
      this.prisma.notification.count({ where }),
    ]);
    return { rows, total };
  }

  /** Sets the status of every matching thread; answers them as changed. */
  async setStatusWhere(f: NotificationFilter, status: NotificationStatus): Promise<NotificationRow[]> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.notification.findMany({ where: this.where(f), select: { id: true } });
      const ids = rows.map((r) => r.id);
      if (ids.length === 0) return [];
      await tx.notification.updateMany({ where: { id: { in: ids } }, data: { status } });
      return tx.notification.findMany({ where: { id: { in: ids } }, include: WITH_ISSUE, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }] });
    });
  }

  findById(id: number): Promise<NotificationRow | null> {
    return this.prisma.notification.findUnique({ where: { id }, include: WITH_ISSUE });
  }

  setStatus(id: number, status: NotificationStatus): Promise<NotificationRow> {
    return this.prisma.notification.update({ where: { id }, data: { status }, include: WITH_ISSUE });
  }

  countUnread(userId: number): Promise<number> {
    return this.prisma.notification.count({ where: { userId, status: 'unread' } });
  }

  findIssue(repoId: number, index: number) {
    return this.prisma.issue.findUnique({ where: { repoId_index: { repoId, index } }, select: { id: true, posterId: true, isPull: true } });
  }

  /** Gitea's `CreateOrUpdateIssueNotifications` as of `until` (the event's time: a later commenter is no recipient). */
  async recipients(repoId: number, issueId: number, posterId: number, until: Date): Promise<number[]> {
    const [commenters, assignees, watchers, threads] = await Promise.all([
      this.prisma.issueComment.findMany({
        where: { issueId, type: 'comment', createdAt: { lte: until } }, distinct: ['posterId'], select: { posterId: true },
      }),
      this.prisma.issueAssignee.findMany({ where: { issueId }, select: { assigneeId: true } }),
      this.prisma.repoFollow.findMany({ where: { kind: 'watch', repoId, createdAt: { lte: until } }, select: { userId: true } }),
      this.prisma.notification.findMany({ where: { issueId }, select: { userId: true } }),
    ]);
    return [...new Set([
      posterId,
      ...commenters.map((c) => c.posterId),
      ...assignees.map((a) => a.assigneeId),
      ...watchers.map((w) => w.userId),
      ...threads.map((t) => t.userId),
    ])];
  }

  /** Unread as of the event (pinned stays pinned); an event already applied (redelivery) leaves it alone. */
  async touch(
    users: number[],
    t: { repoId: number; issueId: number; commentId: number | null; eventId: string; at: Date },
  ): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      for (const userId of users) {
        const existing = await tx.notification.findUnique({ where: { userId_issueId: { userId, issueId: t.issueId } } });
        if (existing?.lastEventId === t.eventId) continue;
        if (!existing) {
          await tx.notification.create({
            data: { userId, repoId: t.repoId, issueId: t.issueId, status: 'unread', commentId: t.commentId, lastEventId: t.eventId, updatedAt: t.at },
          });
          continue;
        }
        await tx.notification.update({
          where: { id: existing.id },
          data: {
            status: existing.status === 'pinned' ? 'pinned' : 'unread',
            commentId: t.commentId ?? existing.commentId,
            lastEventId: t.eventId,
            updatedAt: t.at > existing.updatedAt ? t.at : existing.updatedAt,
          },
        });
      }
    });
  }

  /** The latest plain comment of each issue (Gitea's `GetLastComment`), one query for a page of threads. */
  async latestComments(issueIds: number[]): Promise<Map<number, number>> {
    if (issueIds.length === 0) return new Map();
    const rows = await this.prisma.issueComment.findMany({
      where: { issueId: { in: issueIds }, type: 'comment' },
      orderBy: [{ issueId: 'asc' }, { createdAt: 'desc' }, { id: 'desc' }],
      distinct: ['issueId'],
      select: { issueId: true, id: true },
    });
    return new Map(rows.map((r) => [r.issueId, r.id]));
  }
}
