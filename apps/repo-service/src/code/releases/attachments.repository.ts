import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Tx } from '../../foundation/prisma/prisma.service.js';

/** A release attachment row (`size` as a number: at most `[attachment] MAX_SIZE` MB, far below 2^53). */
export interface AttachmentRow {
  id: number;
  uuid: string;
  repoId: number;
  releaseId: number;
  uploaderId: number;
  name: string;
  size: number;
  /** The blob of its bytes; null only until a file of the old layout has moved into the blob store. */
  sha256: string | null;
  downloadCount: number;
  createdAt: Date;
}

type StoredRow = Omit<AttachmentRow, 'size'> & { size: bigint };

function toRow(row: StoredRow): AttachmentRow {
  return { ...row, size: Number(row.size) };
}

const OLDEST_FIRST = [{ id: 'asc' as const }];

@Injectable()
export class AttachmentsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async ofReleases(repoId: number, releaseIds: number[]): Promise<AttachmentRow[]> {
    if (!releaseIds.length) return [];
    const rows = await this.prisma.releaseAttachment.findMany({
      where: { repoId, releaseId: { in: releaseIds } },
      orderBy: OLDEST_FIRST,
    });
    return rows.map(toRow);
  }

  async byId(repoId: number, releaseId: number, id: number): Promise<AttachmentRow | null> {
    const row = await this.prisma.releaseAttachment.findFirst({ where: { id, repoId, releaseId } });
    return row && toRow(row);
  }

  async byUuid(uuid: string, repoId?: number): Promise<AttachmentRow | null> {
    const row = await this.prisma.releaseAttachment.findFirst({ where: { uuid, ...(repoId ? { repoId } : {}) } });
    return row && toRow(row);
  }

  /** The first attachment of a release with this name (names are not unique, as in Gitea). */
  async byName(repoId: number, releaseId: number, name: string): Promise<AttachmentRow | null> {
    const row = await this.prisma.releaseAttachment.findFirst({ where: { repoId, releaseId, name }, orderBy: OLDEST_FIRST });
    return row && toRow(row);
  }

  /** In the transaction that commits the blob it names (git-core/storage/attachment-blobs.ts). */
  async insert(tx: Tx, row: Omit<AttachmentRow, 'id' | 'createdAt' | 'downloadCount'>): Promise<AttachmentRow> {
    return toRow(await tx.releaseAttachment.create({ data: { ...row, size: BigInt(row.size) } }));
  }

  async rename(row: AttachmentRow, name: string): Promise<AttachmentRow> {
    return toRow(await this.prisma.releaseAttachment.update({ where: { id: row.id }, data: { name } }));
  }

  async countDownload(id: number): Promise<void> {
    await this.prisma.releaseAttachment.update({ where: { id }, data: { downloadCount: { increment: 1 } } });
  }

  async remove(repoId: number, id: number): Promise<boolean> {
    return (await this.prisma.releaseAttachment.deleteMany({ where: { id, repoId } })).count > 0;
  }

  /** The blobs a release's attachments name (deleted once the release's rows are gone, unless others name them). */
  async blobsOf(repoId: number, releaseId: number, db: Db = this.prisma): Promise<string[]> {
    const rows = await db.releaseAttachment.findMany({ where: { repoId, releaseId, sha256: { not: null } }, select: { sha256: true } });
    return rows.map((r) => r.sha256!);
  }
}
