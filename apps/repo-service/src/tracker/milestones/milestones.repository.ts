import { Injectable } from '@nestjs/common';
import type { Paging } from '@cairn/contracts';
import type { Milestone, Prisma } from '../../generated/prisma/client.js';
import { PrismaService, type Db } from '../../foundation/prisma/prisma.service.js';

export interface MilestoneData {
  name: string;
  description: string;
  dueOn: Date | null;
  isClosed: boolean;
  closedAt: Date | null;
}

/** Persistence of milestones (their counters are kept by `IssuesRepository.recountMilestone`). */
@Injectable()
export class MilestonesRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(repoId: number, filter: { state: 'open' | 'closed' | 'all'; name?: string }, paging: Paging) {
    const where: Prisma.MilestoneWhereInput = { repoId };
    if (filter.state !== 'all') where.isClosed = filter.state === 'closed';
    if (filter.name) where.name = { contains: filter.name, mode: 'insensitive' };
    const [items, total] = await Promise.all([
      this.prisma.milestone.findMany({ where, orderBy: [{ dueOn: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }], skip: paging.skip, take: paging.take }),
      this.prisma.milestone.count({ where }),
    ]);
    return { items, total };
  }

  findById(repoId: number, id: number, db: Db = this.prisma): Promise<Milestone | null> {
    return db.milestone.findFirst({ where: { id, repoId } });
  }

  findByName(repoId: number, name: string, db: Db = this.prisma): Promise<Milestone | null> {
    return db.milestone.findFirst({ where: { repoId, name }, orderBy: { id: 'asc' } });
  }

  /** Milestones of the repository by ids or titles (the issue-list filter). */
  findByIdsOrNames(repoId: number, ids: number[], names: string[]): Promise<Milestone[]> {
    return this.prisma.milestone.findMany({ where: { repoId, OR: [{ id: { in: ids } }, { name: { in: names } }] } });
  }

  create(repoId: number, data: MilestoneData, now: Date): Promise<Milestone> {
    return this.prisma.milestone.create({ data: { repoId, ...data, createdAt: now, updatedAt: now } });
  }

  update(id: number, data: Partial<MilestoneData>, now: Date): Promise<Milestone> {
    return this.prisma.milestone.update({ where: { id }, data: { ...data, updatedAt: now } });
  }

  /** Deletes a milestone; its issues keep no milestone (the foreign key sets them null). */
  async delete(id: number): Promise<void> {
    await this.prisma.milestone.deleteMany({ where: { id } });
  }
}
