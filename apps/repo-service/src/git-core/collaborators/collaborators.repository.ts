import { Injectable } from '@nestjs/common';
import type { CollaboratorPermission, Paging } from '@cairn/contracts';
import { PrismaService, type Db } from '../../foundation/prisma/prisma.service.js';

@Injectable()
export class CollaboratorsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(repoId: number, paging: Paging, db: Db = this.prisma) {
    const [rows, total] = await Promise.all([
      db.collaboration.findMany({
        where: { repoId },
        orderBy: { id: 'asc' },
        skip: paging.skip,
        take: paging.take,
        select: { userId: true, mode: true },
      }),
      db.collaboration.count({ where: { repoId } }),
    ]);
    return { rows, total };
  }

  /** The collaborators with one of these modes (`write`, `admin`: who can be assigned), oldest first. */
  async userIdsWithModes(repoId: number, modes: string[], db: Db = this.prisma): Promise<number[]> {
    const rows = await db.collaboration.findMany({ where: { repoId, mode: { in: modes } }, orderBy: { id: 'asc' }, select: { userId: true } });
    return rows.map((r) => r.userId);
  }

  async exists(repoId: number, userId: number, db: Db = this.prisma): Promise<boolean> {
    const row = await db.collaboration.findUnique({ where: { repoId_userId: { repoId, userId } }, select: { id: true } });
    return row !== null;
  }

  async upsert(repoId: number, userId: number, mode: CollaboratorPermission, db: Db = this.prisma): Promise<void> {
    await db.collaboration.upsert({
      where: { repoId_userId: { repoId, userId } },
      create: { repoId, userId, mode },
      update: { mode },
    });
  }

  async remove(repoId: number, userId: number, db: Db = this.prisma): Promise<boolean> {
    const { count } = await db.collaboration.deleteMany({ where: { repoId, userId } });
    return count > 0;
  }
}
