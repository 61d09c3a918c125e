import { Injectable } from '@nestjs/common';
import { uniqueViolation } from '@cairn/platform';
import { PrismaService, type Tx } from '../prisma/prisma.service.js';

export interface DeletionCounts {
  packages: number;
  unlinked: number;
}

@Injectable()
export class DeletionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** `change` and the consumed-event record in one transaction; null when consumed before. */
  async once(eventId: string, subject: string, change: (tx: Tx) => Promise<DeletionCounts>): Promise<DeletionCounts | null> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.consumedEvent.create({ data: { id: eventId, subject } });
        return change(tx);
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) return null;
      throw err;
    }
  }

  async removeOwner(tx: Tx, ownerId: number): Promise<DeletionCounts> {
    // Properties point at packages, versions or files by id (no foreign key): they go first, in three statements.
    await tx.$executeRaw`
      DELETE FROM packages.package_property pp USING packages.package_file f, packages.package_version v, packages.package p
       WHERE pp.ref_type = 'file' AND pp.ref_id = f.id AND f.version_id = v.id AND v.package_id = p.id AND p.owner_id = ${ownerId}`;
    await tx.$executeRaw`
      DELETE FROM packages.package_property pp USING packages.package_version v, packages.package p
       WHERE pp.ref_type = 'version' AND pp.ref_id = v.id AND v.package_id = p.id AND p.owner_id = ${ownerId}`;
    await tx.$executeRaw`
      DELETE FROM packages.package_property pp USING packages.package p
       WHERE pp.ref_type = 'package' AND pp.ref_id = p.id AND p.owner_id = ${ownerId}`;
    // Versions and files go with their package (ON DELETE CASCADE).
    const { count } = await tx.package.deleteMany({ where: { ownerId } });
    await tx.packageBlobUpload.deleteMany({ where: { ownerId } });
    return { packages: count, unlinked: 0 };
  }

  /** Unlinks the repository's packages (as Gitea: they stay). */
  async unlinkRepository(tx: Tx, repoId: number): Promise<DeletionCounts> {
    const { count } = await tx.package.updateMany({ where: { repoId }, data: { repoId: null } });
    return { packages: 0, unlinked: count };
  }
}
