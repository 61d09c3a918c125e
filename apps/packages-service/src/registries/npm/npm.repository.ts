import type { PrismaService, Tx } from '../../prisma/prisma.service.js';
import type { BlobRow, FileRow, VersionRow } from '../../store/packages.repository.js';
import type { NpmVersionRecord } from './npm-packument.js';
import type { NpmMetadata } from './npm-publish.js';

/** Gitea's property name of an npm dist-tag (a version property whose value is the tag). */
export const NPM_TAG_PROPERTY = 'npm.tag';

function versionRecord(
  v: VersionRow & { files: (FileRow & { blob: BlobRow })[] },
  tags: string[],
): NpmVersionRecord | null {
  const file = v.files[0];
  if (!file) return null;
  return {
    version: v.version,
    created: v.createdAt,
    metadata: v.metadata as NpmMetadata,
    filename: file.name,
    sha1: file.blob.hashSha1,
    sha512: file.blob.hashSha512,
    tags,
  };
}

export class NpmRepository {
  constructor(private readonly prisma: PrismaService) {}

  async versionRecords(packageId: number): Promise<NpmVersionRecord[]> {
    const versions = await this.prisma.packageVersion.findMany({
      where: { packageId, isInternal: false },
      include: { files: { where: { isLead: true }, include: { blob: true }, take: 1 } },
    });
    const tags = await this.tagsOf(versions.map((v) => v.id));
    return versions.flatMap((v) => versionRecord(v, tags.get(v.id) ?? []) ?? []);
  }

  async distTags(packageId: number): Promise<Record<string, string>> {
    const versions = await this.prisma.packageVersion.findMany({
      where: { packageId, isInternal: false },
      select: { id: true, version: true },
    });
    const tags = await this.tagsOf(versions.map((v) => v.id));
    const result: Record<string, string> = {};
    for (const v of versions) for (const tag of tags.get(v.id) ?? []) result[tag] = v.version;
    return result;
  }

  /** Points `tag` at `version` (moving it from whichever version of the package had it). */
  async setTag(tx: Tx, version: Pick<VersionRow, 'id' | 'packageId'>, tag: string): Promise<void> {
    await this.deleteTag(tx, version.packageId, tag);
    // (deleteTag locked the package: concurrent tag moves cannot leave one tag on two versions)
    await tx.packageProperty.create({ data: { refType: 'version', refId: version.id, name: NPM_TAG_PROPERTY, value: tag } });
  }

  async deleteTag(tx: Tx, packageId: number, tag: string): Promise<void> {
    await tx.$queryRaw`SELECT id FROM packages.package WHERE id = ${packageId} FOR UPDATE`;
    const versions = await tx.packageVersion.findMany({ where: { packageId }, select: { id: true } });
    await tx.packageProperty.deleteMany({
      where: { refType: 'version', refId: { in: versions.map((v) => v.id) }, name: NPM_TAG_PROPERTY, value: tag },
    });
  }

  /** Case-insensitive name match, by name, each with its most recently created version; `total` counts every match. */
  async search(
    ownerId: number,
    text: string,
    from: number,
    size: number,
  ): Promise<{ hits: { name: string; latest: NpmVersionRecord }[]; total: number }> {
    const where = {
      ownerId,
      type: 'npm',
      isInternal: false,
      lowerName: { contains: text.toLowerCase() },
      versions: { some: { isInternal: false } },
    };
    const [total, packages] = await Promise.all([
      this.prisma.package.count({ where }),
      this.prisma.package.findMany({
        where,
        orderBy: { lowerName: 'asc' },
        skip: from,
        take: size,
        include: {
          versions: {
            where: { isInternal: false },
            orderBy: { createdAt: 'desc' },
            take: 1,
            include: { files: { where: { isLead: true }, include: { blob: true }, take: 1 } },
          },
        },
      }),
    ]);
    const hits = packages.flatMap((p) => {
      const latest = p.versions[0] && versionRecord(p.versions[0], []);
      return latest ? [{ name: p.name, latest }] : [];
    });
    return { hits, total };
  }

  /** The one visible version of a package that has a file of this name (Gitea's download by file name). */
  async versionWithFile(packageId: number, filename: string): Promise<VersionRow | null> {
    const versions = await this.prisma.packageVersion.findMany({
      where: { packageId, isInternal: false, files: { some: { lowerName: filename.toLowerCase() } } },
      take: 2,
    });
    return versions.length === 1 ? versions[0] : null;
  }

  private async tagsOf(versionIds: number[]): Promise<Map<number, string[]>> {
    const rows = await this.prisma.packageProperty.findMany({
      where: { refType: 'version', refId: { in: versionIds }, name: NPM_TAG_PROPERTY },
      orderBy: { id: 'asc' },
    });
    const tags = new Map<number, string[]>();
    for (const row of rows) tags.set(row.refId, [...(tags.get(row.refId) ?? []), row.value]);
    return tags;
  }
}
