import { Injectable } from '@nestjs/common';
import type { FollowKind, Paging } from '@cairn/contracts';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';

const COUNTER = { star: 'numStars', watch: 'numWatches' } as const;

/** Stars and watches are written only here, but a new repository's first watch (`RepositoriesRepository.insert`). */
@Injectable()
export class FollowsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async exists(kind: FollowKind, repoId: number, userId: number): Promise<boolean> {
    const row = await this.prisma.repoFollow.findUnique({ where: { kind_repoId_userId: { kind, repoId, userId } }, select: { id: true } });
    return row !== null;
  }

  /** Follows or unfollows, keeping the repository's counter in the same transaction; idempotent. */
  set(kind: FollowKind, repoId: number, userId: number, on: boolean): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      const changed = on
        ? (await tx.repoFollow.createMany({ data: [{ kind, repoId, userId }], skipDuplicates: true })).count
        : (await tx.repoFollow.deleteMany({ where: { kind, repoId, userId } })).count;
      if (changed === 0) return;
      await tx.repository.update({ where: { id: repoId }, data: { [COUNTER[kind]]: { increment: on ? 1 : -1 } } });
    });
  }

  async followers(kind: FollowKind, repoId: number, paging: Paging): Promise<{ userIds: number[]; total: number }> {
    const where = { kind, repoId };
    const [rows, total] = await Promise.all([
      this.prisma.repoFollow.findMany({ where, orderBy: { id: 'asc' }, skip: paging.skip, take: paging.take, select: { userId: true } }),
      this.prisma.repoFollow.count({ where }),
    ]);
    return { userIds: rows.map((r) => r.userId), total };
  }

  async followed(kind: FollowKind, userId: number): Promise<number[]> {
    const rows = await this.prisma.repoFollow.findMany({ where: { kind, userId }, orderBy: { id: 'desc' }, select: { repoId: true } });
    return rows.map((r) => r.repoId);
  }
}
