import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';

export interface AccountDataRemoved {
  stars: number;
  watches: number;
  collaborations: number;
  assignments: number;
  reviewRequests: number;
  notifications: number;
}

/** What Gitea's `DeleteUser` removes too; repositories are not here (identity-service refuses to delete owners). */
@Injectable()
export class DeletedAccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Removes it all in one transaction; a second call finds nothing (idempotent, so redelivery is harmless). */
  removeDataOf(userId: number): Promise<AccountDataRemoved> {
    return this.prisma.$transaction(async (tx) => {
      const follows = await tx.repoFollow.findMany({ where: { userId }, select: { kind: true, repoId: true } });
      for (const kind of ['star', 'watch'] as const) {
        const repoIds = follows.filter((f) => f.kind === kind).map((f) => f.repoId);
        if (!repoIds.length) continue;
        const counter = kind === 'star' ? 'numStars' : 'numWatches';
        await tx.repository.updateMany({ where: { id: { in: repoIds } }, data: { [counter]: { decrement: 1 } } });
      }
      await tx.repoFollow.deleteMany({ where: { userId } });
      const collaborations = await tx.collaboration.deleteMany({ where: { userId } });
      const assignments = await tx.issueAssignee.deleteMany({ where: { assigneeId: userId } });
      const reviewRequests = await tx.pullReview.deleteMany({ where: { reviewerId: userId, type: 'request' } });
      const notifications = await tx.notification.deleteMany({ where: { userId } });
      return {
        stars: follows.filter((f) => f.kind === 'star').length,
        watches: follows.filter((f) => f.kind === 'watch').length,
        collaborations: collaborations.count,
        assignments: assignments.count,
        reviewRequests: reviewRequests.count,
        notifications: notifications.count,
      };
    });
  }
}
