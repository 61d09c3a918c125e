import { Injectable } from '@nestjs/common';
import type { Paging } from '@cairn/contracts';
import { PrismaService, type Db } from '../../foundation/prisma/prisma.service.js';

export interface ReleaseRow {
  id: number;
  repoId: number;
  tagName: string;
  target: string;
  title: string;
  note: string;
  isDraft: boolean;
  isPrerelease: boolean;
  publisherId: number;
  sha1: string;
  createdAt: Date;
}

export type ReleaseChanges = Partial<Pick<ReleaseRow, 'tagName' | 'target' | 'title' | 'note' | 'isDraft' | 'isPrerelease' | 'sha1'>>;

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

@Injectable()
export class ReleasesRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(repoId: number, filter: { isDraft?: boolean; isPrerelease?: boolean }, paging: Paging) {
    const where = { repoId, ...filter };
    const [rows, total] = await Promise.all([
      this.prisma.release.findMany({ where, orderBy: NEWEST_FIRST, skip: paging.skip, take: paging.take }),
      this.prisma.release.count({ where }),
    ]);
    return { rows, total };
  }

  byId(repoId: number, id: number, db: Db = this.prisma): Promise<ReleaseRow | null> {
    return db.release.findFirst({ where: { id, repoId } });
  }

  byTag(repoId: number, tagName: string, db: Db = this.prisma): Promise<ReleaseRow | null> {
    return db.release.findUnique({ where: { repoId_lowerTagName: { repoId, lowerTagName: tagName.toLowerCase() } } });
  }

  latest(repoId: number): Promise<ReleaseRow | null> {
    return this.prisma.release.findFirst({ where: { repoId, isDraft: false, isPrerelease: false }, orderBy: NEWEST_FIRST });
  }

  insert(db: Db, row: Omit<ReleaseRow, 'id' | 'createdAt'>): Promise<ReleaseRow> {
    return db.release.create({ data: { ...row, lowerTagName: row.tagName.toLowerCase() } });
  }

  update(db: Db, repoId: number, id: number, changes: ReleaseChanges): Promise<ReleaseRow> {
    const lower = changes.tagName === undefined ? {} : { lowerTagName: changes.tagName.toLowerCase() };
    return db.release.update({ where: { id, repoId }, data: { ...changes, ...lower } });
  }

  async remove(db: Db, repoId: number, id: number): Promise<boolean> {
    return (await db.release.deleteMany({ where: { id, repoId } })).count > 0;
  }
}
