import { Transform, Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import type { RepositoryDto } from '../repo/repository.dto.js';
import type { UserDto } from '../identity/user.dto.js';

export const PACKAGE_TYPE_PATTERN = /^[a-z0-9]{1,32}$/;
export const PACKAGE_TEXT_MAX_LENGTH = 255;
/** A NUL would fail in Postgres. */
// eslint-disable-next-line no-control-regex -- the rule is about control characters
export const PACKAGE_TEXT_PATTERN = /^[^\u0000-\u001f\u007f]+$/;

/** One package **version** (its `id` is the version's); `repository` is null unless linked to one the caller may see. */
export interface PackageDto {
  id: number;
  owner: UserDto;
  repository: RepositoryDto | null;
  creator: UserDto;
  type: string;
  name: string;
  version: string;
  html_url: string;
  created_at: string;
}

export interface PackageFileDto {
  id: number;
  size: number;
  name: string;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

export class ListPackagesQuery extends ListQuery {
  @IsOptional() @IsString() @MaxLength(32) type?: string;
  @IsOptional() @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) q?: string;
}

export const PACKAGE_VERSION_SORTS = ['created', 'semver'] as const;
export type PackageVersionSort = (typeof PACKAGE_VERSION_SORTS)[number];

export class ListPackageVersionsQuery extends ListQuery {
  /** Semantic versions first (highest first), then the others newest first; default: newest first (Gitea). */
  @IsOptional() @IsIn(PACKAGE_VERSION_SORTS) sort?: PackageVersionSort;
}

export class LatestPackageVersionQuery {
  @IsOptional()
  @Transform(({ value }) => (value === 'true' || value === true ? true : value === 'false' || value === false ? false : value))
  @IsIn([true, false], { message: 'semver must be true or false' })
  semver?: boolean;
}

export class PackageOwnerRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) owner: string;
}

export class ListPackagesRequest extends PackageOwnerRequest {
  @IsOptional() @ValidateNested() @Type(() => ListPackagesQuery) query?: ListPackagesQuery;
}

export class PackageRequest extends PackageOwnerRequest {
  @IsString() @Matches(PACKAGE_TYPE_PATTERN, { message: 'type must be a package type' }) type: string;
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) @Matches(PACKAGE_TEXT_PATTERN, { message: 'name must be printable text' })
  name: string;
}

export class ListPackageVersionsRequest extends PackageRequest {
  @IsOptional() @ValidateNested() @Type(() => ListPackageVersionsQuery) query?: ListPackageVersionsQuery;
}

export class LatestPackageVersionRequest extends PackageRequest {
  @IsOptional() @IsIn([true, false]) semver?: boolean;
}

export class PackageVersionRequest extends PackageRequest {
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) @Matches(PACKAGE_TEXT_PATTERN, { message: 'version must be printable text' })
  version: string;
}

export class LinkPackageRequest extends PackageRequest {
  @IsString() @MaxLength(PACKAGE_TEXT_MAX_LENGTH) repo: string;
}
