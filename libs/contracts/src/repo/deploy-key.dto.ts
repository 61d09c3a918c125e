import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQuery, MAX_INT32 } from '../common/pagination.js';
import { CreateKeyBody } from '../identity/key.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';
import type { RepositoryDto } from './repository.dto.js';

/** `read_only` and `repository` only for a site admin or the repository's owner (as Gitea). */
export interface DeployKeyDto {
  id: number;
  /** Cairn keeps one row per repository and key, so it is the same as `id`. */
  key_id: number;
  key: string;
  url: string;
  title: string;
  fingerprint: string;
  created_at: string;
  read_only?: boolean;
  repository?: RepositoryDto;
}

export class ListDeployKeysQuery extends ListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_INT32) key_id?: number;
  @IsOptional() @IsString() @MaxLength(255) fingerprint?: string;
}

export class ListDeployKeysRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListDeployKeysQuery) query: ListDeployKeysQuery;
}
export class CreateDeployKeyRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateKeyBody) body: CreateKeyBody;
}
export class DeployKeyIdRequest extends RepoScopedRequest {
  @IsInt() id: number;
}
export class DeployKeyFingerprintRequest {
  @IsString() @MaxLength(255) fingerprint: string;
}
