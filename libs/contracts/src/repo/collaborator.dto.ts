import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import { RepoScopedRequest, type AccessLevel } from './repo-access.dto.js';

export const COLLABORATOR_PERMISSIONS = ['read', 'write', 'admin'] as const;
export type CollaboratorPermission = (typeof COLLABORATOR_PERMISSIONS)[number];

export class AddCollaboratorBody {
  /** `write` is the default, as Gitea. */
  @IsOptional() @IsIn(COLLABORATOR_PERMISSIONS) permission?: CollaboratorPermission;
}

export interface RepoCollaboratorPermissionDto {
  permission: AccessLevel;
  role_name: AccessLevel;
  user: UserDto;
}

export class ListCollaboratorsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class CollaboratorRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) username: string;
}

export class AddCollaboratorRequest extends CollaboratorRequest {
  @ValidateNested() @Type(() => AddCollaboratorBody) body: AddCollaboratorBody;
}
