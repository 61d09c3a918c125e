import { Transform, Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import type { RepositoryDto } from '../repo/repository.dto.js';
import type { UserDto } from '../identity/user.dto.js';

/** A package type in a path (`generic`, `npm`, `container`, …): lower-case letters and digits. */
export const PACKAGE_TYPE_PATTERN = /^[a-z0-9]{1,32}$/;
/** The longest package name, version or repository name a request may carry (Gitea's columns are 255 wide). */
export const PACKAGE_TEXT_MAX_LENGTH = 255;
/** No control characters (a NUL would fail in Postgres; none belongs in a name or version). */
// eslint-disable-next-line no-control-regex -- the rule is about control characters
export const PACKAGE_TEXT_PATTERN = /^[^\u0000-\u001f\u007f]+$/;

/**
 * Gitea's `Package`: one package **version** (its `id` is the version's). `repository` is null unless the package is
 * linked to a repository the caller may see.
 */
export interface PackageDto {
  id: number;
  owner: UserDto;
  repository: RepositoryDto | null;
  creator: UserDto;
  type: string;
  name: string;
  version: string;
  /** `<owner html url>/-/packages/<type>/<lower name>/<lower version>`. */
  html_url: string;
  created_at: string;
}

/** Gitea's `PackageFile` (1.24: `size` in lower case). Digests are lower-case hex. */
export interface PackageFileDto {
  id: number;
  size: number;
  name: string;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

/** `GET /packages/{owner}`: `?type=&q=` plus paging. */
export class ListPackagesQuery extends ListQuery {
  /** Only packages of this type. */
  @IsOptional() @IsString() @MaxLength(32) type?: string;
  /** Part of the package name (case-insensitive). */
  @IsOptional() @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) q?: string;
}

/** The orders of a version list: Gitea's newest first, or Cairn's semantic-version order. */
export const PACKAGE_VERSION_SORTS = ['created', 'semver'] as const;
export type PackageVersionSort = (typeof PACKAGE_VERSION_SORTS)[number];

/** `GET /packages/{owner}/{type}/{name}`: paging, plus Cairn's `sort=semver`. */
export class ListPackageVersionsQuery extends ListQuery {
  /**
   * `semver`: highest semantic version first, versions that are not semantic versions after them, newest first.
   * Default: newest first (Gitea).
   */
  @IsOptional() @IsIn(PACKAGE_VERSION_SORTS) sort?: PackageVersionSort;
}

/** `GET …/-/latest`: Cairn's `semver=true` picks the highest semantic version instead of the newest version. */
export class LatestPackageVersionQuery {
  /** `true`: the highest semantic version (the newest version when none is one). */
  @IsOptional()
  @Transform(({ value }) => (value === 'true' || value === true ? true : value === 'false' || value === false ? false : value))
  @IsIn([true, false], { message: 'semver must be true or false' })
  semver?: boolean;
}

/** Every packages-API message: the caller and the owner's name. */
export class PackageOwnerRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) owner: string;
}

/** `packages.package.list`. */
export class ListPackagesRequest extends PackageOwnerRequest {
  @IsOptional() @ValidateNested() @Type(() => ListPackagesQuery) query?: ListPackagesQuery;
}

/** One package of the owner by type and name. */
export class PackageRequest extends PackageOwnerRequest {
  @IsString() @Matches(PACKAGE_TYPE_PATTERN, { message: 'type must be a package type' }) type: string;
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) @Matches(PACKAGE_TEXT_PATTERN, { message: 'name must be printable text' })
  name: string;
}

/** `packages.version.list`. */
export class ListPackageVersionsRequest extends PackageRequest {
  @IsOptional() @ValidateNested() @Type(() => ListPackageVersionsQuery) query?: ListPackageVersionsQuery;
}

/** `packages.version.latest`. */
export class LatestPackageVersionRequest extends PackageRequest {
  @IsOptional() @IsIn([true, false]) semver?: boolean;
}

/** One version of a package. */
export class PackageVersionRequest extends PackageRequest {
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) @Matches(PACKAGE_TEXT_PATTERN, { message: 'version must be printable text' })
  version: string;
}

/** `packages.package.link`: the repository, by name, among the owner's. */
export class LinkPackageRequest extends PackageRequest {
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) repo: string;
}
