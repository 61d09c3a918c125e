import { Injectable } from '@nestjs/common';
import { PrismaService, type Tx } from '../prisma/prisma.service.js';
import type { Prisma } from '../generated/prisma/client.js';
import { lockForTransaction, type StagedBlob } from '@cairn/platform';

export type BlobRow = Prisma.PackageBlobGetPayload<object>;

/** The advisory-lock class of blob locks ("PKGB"), so they never collide with other advisory locks. */
const BLOB_LOCK_CLASS = 0x504b4742;

/** Blob rows and their lock: what uploads and the cleanup (blob-cleanup.ts) serialise on. */
@Injectable()
export class BlobsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async lock(tx: Tx, sha256: string): Promise<void> {
    await lockForTransaction(tx, BLOB_LOCK_CLASS, sha256);
  }

  /** Records a committed blob (one row per sha256) and clears its cleanup mark. */
  record(tx: Tx, staged: StagedBlob): Promise<BlobRow> {
    return tx.packageBlob.upsert({
      where: { hashSha256: staged.sha256 },
      create: {
        size: BigInt(staged.size),
        hashMd5: staged.md5,
        hashSha1: staged.sha1,
        hashSha256: staged.sha256,
        hashSha512: staged.sha512,
      },
      update: { unreferencedSince: null },
    });
  }

  /** Marks the blobs no file references (rule 1 of the cleanup); how many it marked. */
  markUnreferenced(now: Date): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE packages.package_blob b SET unreferenced_since = ${now}
      WHERE b.unreferenced_since IS NULL
        AND NOT EXISTS (SELECT 1 FROM packages.package_file f WHERE f.blob_id = b.id)`;
  }

  markedBefore(cutoff: Date, take: number): Promise<Array<{ id: number; hashSha256: string }>> {
    return this.prisma.packageBlob.findMany({
      where: { unreferencedSince: { lt: cutoff } },
      select: { id: true, hashSha256: true },
      take,
      orderBy: { id: 'asc' },
    });
  }

  async deleteIfStillUnreferenced(tx: Tx, id: number, cutoff: Date): Promise<boolean> {
    const n = await tx.$executeRaw`
      DELETE FROM packages.package_blob b
      WHERE b.id = ${id} AND b.unreferenced_since < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM packages.package_file f WHERE f.blob_id = b.id)`;
    return n > 0;
  }

  async exists(tx: Tx, sha256: string): Promise<boolean> {
    return (await tx.packageBlob.findUnique({ where: { hashSha256: sha256 }, select: { id: true } })) !== null;
  }

  async deleteUploadsBefore(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.packageBlobUpload.deleteMany({ where: { updatedAt: { lt: cutoff } } });
    return count;
  }
}
