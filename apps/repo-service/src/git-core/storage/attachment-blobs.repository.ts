import { Injectable } from '@nestjs/common';
import { lockForTransaction } from '@cairn/platform';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';

/** The advisory-lock class of attachment blob locks ("ATTB"), so they never collide with other advisory locks. */
const BLOB_LOCK_CLASS = 0x41545442;

/** Generous: committing a blob on S3 is a server-side copy of up to 5 GiB inside the transaction. */
const COMMIT_TX_LIMITS = { maxWait: 15_000, timeout: 600_000 } as const;

/** What the blob store needs to serve an attachment. */
export interface AttachmentBlobRef {
  sha256: string | null;
  size: number;
  name: string;
}

/**
 * Which blobs release attachment rows name, and the blobs' locks: what uploads, deletions and the orphan sweep
 * (attachment-blobs.ts) serialise on. The rows themselves are code/releases' attachments.repository.ts.
 */
@Injectable()
export class AttachmentBlobsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, COMMIT_TX_LIMITS);
  }

  /** Holds the blob's transaction-scoped lock until the transaction ends. */
  async lock(tx: Tx, sha256: string): Promise<void> {
    await lockForTransaction(tx, BLOB_LOCK_CLASS, sha256);
  }

  async isNamed(tx: Tx, sha256: string): Promise<boolean> {
    return (await tx.releaseAttachment.findFirst({ where: { sha256 }, select: { id: true } })) !== null;
  }

  /** The blob of one repository's attachment (null when there is no such attachment). */
  async blobOf(repoId: number, uuid: string): Promise<AttachmentBlobRef | null> {
    const row = await this.prisma.releaseAttachment.findFirst({ where: { repoId, uuid }, select: { sha256: true, size: true, name: true } });
    return row && { sha256: row.sha256, size: Number(row.size), name: row.name };
  }

  /** The blobs a repository's attachments name (read before the repository's rows go). */
  async blobsOfRepository(repoId: number): Promise<string[]> {
    const rows = await this.prisma.releaseAttachment.findMany({
      where: { repoId, sha256: { not: null } }, select: { sha256: true }, distinct: ['sha256'],
    });
    return rows.map((r) => r.sha256!);
  }

  /** Whether an attachment of the old layout still waits for its file to move into the blob store. */
  async awaitsBlob(repoId: number, uuid: string): Promise<boolean> {
    return (await this.prisma.releaseAttachment.count({ where: { repoId, uuid, sha256: null } })) > 0;
  }

  /** Names the blob of an old-layout attachment; false when it has one already (another replica moved it). */
  async nameBlob(tx: Tx, repoId: number, uuid: string, sha256: string): Promise<boolean> {
    return (await tx.releaseAttachment.updateMany({ where: { repoId, uuid, sha256: null }, data: { sha256 } })).count > 0;
  }
}
