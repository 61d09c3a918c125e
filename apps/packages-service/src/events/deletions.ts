import { Injectable } from '@nestjs/common';
import { deletedAccountOf, deletedRepositoryIdOf, type DomainEvent } from '@cairn/contracts';
import { uniqueViolation } from '@cairn/platform';
import { PrismaService, type Tx } from '../prisma/prisma.service.js';

/** What a deletion event means for packages, or null for events this service does not act on. */
export type PackagesDeletion = { kind: 'owner'; ownerId: number } | { kind: 'repository'; repoId: number };

export function deletionOf(event: DomainEvent): PackagesDeletion | null {
  const ownerId = deletedAccountOf(event)?.id;
  if (ownerId !== undefined) return { kind: 'owner', ownerId };
  const repoId = deletedRepositoryIdOf(event);
  return repoId === null ? null : { kind: 'repository', repoId };
}

/** What one deletion changed. */
export interface DeletionCounts {
  packages: number;
  unlinked: number;
}

/**
 * The packages side of owner and repository deletions, once per event (its id is recorded in the same
 * transaction): a deleted user's or organization's packages go with their versions, files, properties and upload
 * sessions — their blobs become unreferenced and the blob cleanup removes them; a deleted repository's packages
 * are unlinked (as Gitea), and stay.
 */
@Injectable()
export class PackageDeletions {
  constructor(private readonly prisma: PrismaService) {}

  /** Null when the event was handled before or is not a deletion packages care about. */
  async handle(event: DomainEvent): Promise<DeletionCounts | null> {
    const deletion = deletionOf(event);
    if (!deletion) return null;
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.consumedEvent.create({ data: { id: event.id, subject: event.type } });
        return deletion.kind === 'owner' ? this.removeOwner(tx, deletion.ownerId) : this.unlinkRepository(tx, deletion.repoId);
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) return null;
      throw err;
    }
  }

  private async removeOwner(tx: Tx, ownerId: number): Promise<DeletionCounts> {
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

  private async unlinkRepository(tx: Tx, repoId: number): Promise<DeletionCounts> {
    const { count } = await tx.package.updateMany({ where: { repoId }, data: { repoId: null } });
    return { packages: 0, unlinked: count };
  }
}
