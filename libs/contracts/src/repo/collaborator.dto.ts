import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import { RepoScopedRequest, type AccessLevel } from './repo-access.dto.js';

/** What a collaborator may be given (Gitea's `AddCollaboratorOption.permission`). */
export const COLLABORATOR_PERMISSIONS = ['read', 'write', 'admin'] as const;
export type CollaboratorPermission = (typeof COLLABORATOR_PERMISSIONS)[number];

/** `PUT /repos/{owner}/{repo}/collaborators/{username}` body (Gitea's `AddCollaboratorOption`). */
export class AddCollaboratorBody {
  /** `read`, `write` (the default, as Gitea) or `admin`. */
  @IsOptional() @IsIn(COLLABORATOR_PERMISSIONS) permission?: CollaboratorPermission;
}

/** Gitea's `RepoCollaboratorPermission`: a user's effective access to a repository. */
export interface RepoCollaboratorPermissionDto {
  /** `none`, `read`, `write`, `admin` or `owner`. */
  permission: AccessLevel;
  role_name: AccessLevel;
  user: UserDto;
}

/** `repo.collaborator.list`: replies `Paginated<UserDto>`. */
export class ListCollaboratorsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/**
 * `repo.collaborator.check` (replies `true`/`false`), `repo.collaborator.remove`, `repo.collaborator.permission`
 * (replies {@link RepoCollaboratorPermissionDto}).
 */
export class CollaboratorRequest extends RepoScopedRequest {
  @IsString() @MaxLength(255) username: string;
}

/** `repo.collaborator.add`. */
export class AddCollaboratorRequest extends CollaboratorRequest {
  @ValidateNested() @Type(() => AddCollaboratorBody) body: AddCollaboratorBody;
}
