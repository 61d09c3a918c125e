import { toApiTime } from '@cairn/contracts';
import type { PackageDto, PackageFileDto, RepositoryDto, UserDto } from '@cairn/contracts';

export interface VersionView {
  id: number;
  version: string;
  lowerVersion: string;
  creatorId: number;
  createdAt: Date;
  package: { id: number; ownerId: number; type: string; name: string; lowerName: string; repoId: number | null };
}

export interface RenderContext {
  users: Map<number, UserDto>;
  repositories: Map<number, RepositoryDto>;
  /** Stand-in for a user identity-service no longer knows (Gitea's Ghost). */
  ghost: (id: number) => UserDto;
}

/** `<owner html url>/-/packages/<type>/<lower name>/<lower version>` (Gitea's `VersionHTMLURL`). */
export function versionHtmlUrl(owner: UserDto, v: VersionView): string {
  const { type, lowerName } = v.package;
  return `${owner.html_url}/-/packages/${encodeURIComponent(type)}/${encodeURIComponent(lowerName)}/${encodeURIComponent(v.lowerVersion)}`;
}

export function toPackageDto(v: VersionView, ctx: RenderContext): PackageDto {
  const owner = ctx.users.get(v.package.ownerId) ?? ctx.ghost(v.package.ownerId);
  const repoId = v.package.repoId;
  return {
    id: v.id,
    owner,
    repository: repoId ? (ctx.repositories.get(repoId) ?? null) : null,
    creator: ctx.users.get(v.creatorId) ?? ctx.ghost(v.creatorId),
    type: v.package.type,
    name: v.package.name,
    version: v.version,
    html_url: versionHtmlUrl(owner, v),
    created_at: toApiTime(v.createdAt),
  };
}

export interface FileView {
  id: number;
  name: string;
  blob: { size: bigint | number; md5: string; sha1: string; sha256: string; sha512: string };
}

/** Gitea's `PackageFile` JSON (1.24: `size` in lower case). */
export function toPackageFileDto(f: FileView): PackageFileDto {
  const { size, md5, sha1, sha256, sha512 } = f.blob;
  return { id: f.id, size: Number(size), name: f.name, md5, sha1, sha256, sha512 };
}
