import { Injectable } from '@nestjs/common';
import type { Paging } from '@cairn/contracts';
import type { Prisma } from '../generated/prisma/client.js';
import { PrismaService, type Db } from '../prisma/prisma.service.js';
import type { FileView, VersionView } from './package.mapper.js';
import type { OrderableVersion } from './version-order.js';

const VERSION_SELECT = {
  id: true,
  version: true,
  lowerVersion: true,
  creatorId: true,
  createdAt: true,
  package: { select: { id: true, ownerId: true, type: true, name: true, lowerName: true, repoId: true } },
} as const satisfies Prisma.PackageVersionSelect;

/** Gitea's order for version lists: newest first. */
const NEWEST_FIRST = [{ createdAt: 'desc' }, { id: 'desc' }] as const satisfies Prisma.PackageVersionOrderByWithRelationInput[];

/** The versions the API shows: not internal, of a package that is not internal. */
function visibleVersions(pkg: Prisma.PackageWhereInput): Prisma.PackageVersionWhereInput {
  return { isInternal: false, package: { isInternal: false, ...pkg } };
}

@Injectable()
export class PackagesApiRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** An owner's versions (Gitea's `SearchVersions`): type exact, `q` a case-insensitive part of the name. */
  async ownerVersions(ownerId: number, filter: { type?: string; q?: string }, paging: Paging): Promise<{ items: VersionView[]; total: number }> {
    const where = visibleVersions({
      ownerId,
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.q ? { lowerName: { contains: filter.q.toLowerCase() } } : {}),
    });
    const [items, total] = await Promise.all([
      this.prisma.packageVersion.findMany({ where, select: VERSION_SELECT, orderBy: NEWEST_FIRST, take: paging.take, skip: paging.skip }),
      this.prisma.packageVersion.count({ where }),
    ]);
    return { items, total };
  }

  async packageVersions(packageId: number, paging: Paging): Promise<{ items: VersionView[]; total: number }> {
    const where = visibleVersions({ id: packageId });
    const [items, total] = await Promise.all([
      this.prisma.packageVersion.findMany({ where, select: VERSION_SELECT, orderBy: NEWEST_FIRST, take: paging.take, skip: paging.skip }),
      this.prisma.packageVersion.count({ where }),
    ]);
    return { items, total };
  }

  /** Every version of a package, only what ordering needs (semantic-version order is worked out in the service). */
  orderableVersions(packageId: number): Promise<OrderableVersion[]> {
    return this.prisma.packageVersion.findMany({
      where: visibleVersions({ id: packageId }),
      select: { id: true, version: true, createdAt: true },
    });
  }

  /** One version as the API renders it, internal ones included (events read it inside their transaction). */
  versionView(id: number, db: Db = this.prisma): Promise<(VersionView & { isInternal: boolean }) | null> {
    return db.packageVersion.findUnique({ where: { id }, select: { ...VERSION_SELECT, isInternal: true } });
  }

  versionsById(ids: number[]): Promise<VersionView[]> {
    return this.prisma.packageVersion.findMany({ where: { id: { in: ids } }, select: VERSION_SELECT });
  }

  /** The package by owner, type and name (case-insensitive); internal packages are not found. */
  findPackage(ownerId: number, type: string, name: string, db: Db = this.prisma) {
    return db.package.findFirst({ where: { ownerId, type, lowerName: name.toLowerCase(), isInternal: false } });
  }

  /** The version with the highest id (Gitea's latest). */
  latestVersion(packageId: number): Promise<VersionView | null> {
    return this.prisma.packageVersion.findFirst({ where: visibleVersions({ id: packageId }), select: VERSION_SELECT, orderBy: { id: 'desc' } });
  }

  findVersion(packageId: number, version: string): Promise<VersionView | null> {
    return this.prisma.packageVersion.findFirst({
      where: { ...visibleVersions({ id: packageId }), lowerVersion: version.toLowerCase() },
      select: VERSION_SELECT,
    });
  }

  async files(versionId: number): Promise<FileView[]> {
    const rows = await this.prisma.packageFile.findMany({
      where: { versionId },
      orderBy: { id: 'asc' },
      select: { id: true, name: true, blob: { select: { size: true, hashMd5: true, hashSha1: true, hashSha256: true, hashSha512: true } } },
    });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      blob: { size: r.blob.size, md5: r.blob.hashMd5, sha1: r.blob.hashSha1, sha256: r.blob.hashSha256, sha512: r.blob.hashSha512 },
    }));
  }

  /** Links (or, with null, unlinks) a package; false when it was linked meanwhile (linking only an unlinked one). */
  async setRepository(packageId: number, repoId: number | null): Promise<boolean> {
    const { count } = await this.prisma.package.updateMany({
      where: repoId === null ? { id: packageId } : { id: packageId, repoId: null },
      data: { repoId },
    });
    return count > 0;
  }
}
