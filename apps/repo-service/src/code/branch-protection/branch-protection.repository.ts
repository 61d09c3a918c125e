import { Injectable } from '@nestjs/common';
import type { BranchProtection, Prisma } from '../../generated/prisma/client.js';
import { PrismaService, type Db } from '../../foundation/prisma/prisma.service.js';

export type BranchProtectionRow = BranchProtection;
export type BranchProtectionFields = Omit<Prisma.BranchProtectionUncheckedCreateInput, 'id' | 'repoId' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class BranchProtectionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A repository's rules, in Gitea's order: priority, then id. */
  list(repoId: number, db: Db = this.prisma): Promise<BranchProtectionRow[]> {
    return db.branchProtection.findMany({ where: { repoId }, orderBy: [{ priority: 'asc' }, { id: 'asc' }] });
  }

  count(repoId: number, db: Db = this.prisma): Promise<number> {
    return db.branchProtection.count({ where: { repoId } });
  }

  byName(repoId: number, ruleName: string, db: Db = this.prisma): Promise<BranchProtectionRow | null> {
    return db.branchProtection.findUnique({ where: { repoId_ruleName: { repoId, ruleName } } });
  }

  /** Renames the rule named exactly `from` (a renamed branch keeps its protection), if there is one. */
  async renameRule(repoId: number, from: string, to: string, db: Db = this.prisma): Promise<void> {
    await db.branchProtection.updateMany({ where: { repoId, ruleName: from }, data: { ruleName: to } });
  }

  /** Inserts a rule; without a priority it goes last (Gitea: highest priority + 1). */
  async create(repoId: number, fields: BranchProtectionFields, db: Db = this.prisma): Promise<BranchProtectionRow> {
    let priority = fields.priority ?? 0;
    if (!priority) {
      const max = await db.branchProtection.aggregate({ where: { repoId }, _max: { priority: true } });
      priority = (max._max.priority ?? 0) + 1;
    }
    return db.branchProtection.create({ data: { ...fields, repoId, priority } });
  }

  update(id: number, fields: Partial<BranchProtectionFields>, db: Db = this.prisma): Promise<BranchProtectionRow> {
    return db.branchProtection.update({ where: { id }, data: fields });
  }

  async ownerOf(repoId: number, db: Db = this.prisma): Promise<number | null> {
    const row = await db.repository.findUnique({ where: { id: repoId }, select: { ownerId: true } });
    return row?.ownerId ?? null;
  }

  /** True when the repository is archived (read-only: its rules cannot change, Gitea's 423). */
  async isArchived(repoId: number, db: Db = this.prisma): Promise<boolean> {
    const row = await db.repository.findUnique({ where: { id: repoId }, select: { isArchived: true } });
    return row?.isArchived ?? false;
  }

  /** True when an organization owns the repository (only then do rules name teams). */
  async ownedByOrganization(repoId: number, db: Db = this.prisma): Promise<boolean> {
    const row = await db.repository.findUnique({ where: { id: repoId }, select: { ownerKind: true } });
    return row?.ownerKind === 'organization';
  }

  async remove(id: number, db: Db = this.prisma): Promise<void> {
    await db.branchProtection.deleteMany({ where: { id } });
  }
}
