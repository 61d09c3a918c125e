import { Injectable } from '@nestjs/common';
import type { Paging } from '@cairn/contracts';
import type { Label, Prisma } from '../../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../../foundation/prisma/prisma.service.js';

export interface LabelData {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
  archivedAt: Date | null;
}

/** Which labels an issue of a repository may carry: the repository's own, and its owning organization's. */
export interface LabelOwner {
  repoId: number;
  /** The owning organization's id, or null when a user owns the repository. */
  orgId: number | null;
}

/** Where a label lives: one repository, or one organization. */
export type LabelHome = { repoId: number } | { orgId: number };

function usable(owner: LabelOwner): Prisma.LabelWhereInput {
  return owner.orgId === null ? { repoId: owner.repoId } : { OR: [{ repoId: owner.repoId }, { orgId: owner.orgId }] };
}

@Injectable()
export class LabelsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(home: LabelHome, paging: Paging): Promise<{ items: Label[]; total: number }> {
    const [items, total] = await Promise.all([
      this.prisma.label.findMany({ where: home, orderBy: [{ name: 'asc' }, { id: 'asc' }], skip: paging.skip, take: paging.take }),
      this.prisma.label.count({ where: home }),
    ]);
    return { items, total };
  }

  find(home: LabelHome, id: number, db: Db = this.prisma): Promise<Label | null> {
    return db.label.findFirst({ where: { id, ...home } });
  }

  create(home: LabelHome, data: LabelData, now: Date): Promise<Label> {
    return this.prisma.label.create({ data: { ...home, ...data, createdAt: now, updatedAt: now } });
  }

  update(id: number, data: Partial<LabelData>, now: Date): Promise<Label> {
    return this.prisma.label.update({ where: { id }, data: { ...data, updatedAt: now } });
  }

  async delete(home: LabelHome, id: number): Promise<boolean> {
    return (await this.prisma.label.deleteMany({ where: { id, ...home } })).count > 0;
  }

  usableByIds(owner: LabelOwner, ids: number[], db: Db = this.prisma): Promise<Label[]> {
    if (!ids.length) return Promise.resolve([]);
    return db.label.findMany({ where: { AND: [{ id: { in: ids } }, usable(owner)] } });
  }

  usableByNames(owner: LabelOwner, names: string[], db: Db = this.prisma): Promise<Label[]> {
    if (!names.length) return Promise.resolve([]);
    return db.label.findMany({ where: { AND: [{ name: { in: names } }, usable(owner)] } });
  }

  /** An issue's labels, by name (Gitea's order). */
  async ofIssue(issueId: number, db: Db = this.prisma): Promise<Label[]> {
    const rows = await db.issueLabel.findMany({
      where: { issueId },
      include: { label: true },
      orderBy: { label: { name: 'asc' } },
    });
    return rows.map((r) => r.label);
  }

  /** Makes the issue's labels exactly `labelIds`: true when something changed. */
  async setIssueLabels(tx: Tx, issueId: number, labelIds: number[]): Promise<boolean> {
    const removed = await tx.issueLabel.deleteMany({ where: { issueId, labelId: { notIn: labelIds } } });
    const added = labelIds.length
      ? await tx.issueLabel.createMany({ data: labelIds.map((labelId) => ({ issueId, labelId })), skipDuplicates: true })
      : { count: 0 };
    return removed.count + added.count > 0;
  }
}
