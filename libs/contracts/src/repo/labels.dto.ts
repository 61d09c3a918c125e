import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { IssueIndexRequest } from './issues.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export const LABEL_COLOR_PATTERN = /^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;
export const LABEL_NAME_MAX_LENGTH = 255;

/** `color` is stored `#rrggbb` and answered without `#`, as Gitea's `convert.ToLabel`. */
export interface LabelDto {
  id: number;
  name: string;
  exclusive: boolean;
  is_archived: boolean;
  color: string;
  description: string;
  url: string;
}

export interface MilestoneDto {
  id: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  open_issues: number;
  closed_issues: number;
  created_at: string;
  updated_at: string | null;
  closed_at: string | null;
  due_on: string | null;
}

export class CreateLabelBody {
  @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) name: string;
  @IsString() @Matches(LABEL_COLOR_PATTERN, { message: 'color must be a hex color such as #00aabb or #0ab' }) color: string;
  @IsOptional() @IsString() @MaxLength(LABEL_NAME_MAX_LENGTH) description?: string;
  @IsOptional() @IsBoolean() exclusive?: boolean;
  @IsOptional() @IsBoolean() is_archived?: boolean;
}

export class EditLabelBody {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) name?: string;
  @IsOptional() @IsString() @Matches(LABEL_COLOR_PATTERN, { message: 'color must be a hex color such as #00aabb or #0ab' }) color?: string;
  @IsOptional() @IsString() @MaxLength(LABEL_NAME_MAX_LENGTH) description?: string;
  @IsOptional() @IsBoolean() exclusive?: boolean;
  @IsOptional() @IsBoolean() is_archived?: boolean;
}

/** Label ids or names, not both; element types are checked by repo-service (400, as Gitea). */
export class IssueLabelsBody {
  @IsArray() labels: unknown[];
}

export class CreateMilestoneBody {
  @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) title: string;
  @IsOptional() @IsString() @MaxLength(64 * 1024) description?: string;
  @IsOptional() @IsISO8601() due_on?: string;
  /** Empty: open (Gitea's Go SDK always sends the field). */
  @IsOptional() @IsIn(['', 'open', 'closed']) state?: '' | 'open' | 'closed';
}

export class EditMilestoneBody {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) title?: string;
  @IsOptional() @IsString() @MaxLength(64 * 1024) description?: string;
  @IsOptional() @IsISO8601() due_on?: string;
  @IsOptional() @IsIn(['open', 'closed']) state?: 'open' | 'closed';
}

export class ListMilestonesQuery extends ListQuery {
  @IsOptional() @IsIn(['open', 'closed', 'all']) state?: 'open' | 'closed' | 'all';
  @IsOptional() @IsString() @MaxLength(LABEL_NAME_MAX_LENGTH) name?: string;
}

export class ListLabelsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class CreateLabelRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateLabelBody) body: CreateLabelBody;
}

export class LabelIdRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

export class EditLabelRequest extends LabelIdRequest {
  @ValidateNested() @Type(() => EditLabelBody) body: EditLabelBody;
}

export class IssueLabelsRequest extends IssueIndexRequest {
  @ValidateNested() @Type(() => IssueLabelsBody) body: IssueLabelsBody;
}

export class IssueLabelIdRequest extends IssueIndexRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

export class ListMilestonesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListMilestonesQuery) query: ListMilestonesQuery;
}

export class CreateMilestoneRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateMilestoneBody) body: CreateMilestoneBody;
}

/** By id or, failing that, by title (Gitea's `getMilestoneByIDOrName`). */
export class MilestoneIdRequest extends RepoScopedRequest {
  @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) id: string;
}

export class EditMilestoneRequest extends MilestoneIdRequest {
  @ValidateNested() @Type(() => EditMilestoneBody) body: EditMilestoneBody;
}

export class OrgLabelsRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString() @MinLength(1) @MaxLength(255) org: string;
}

export class ListOrgLabelsRequest extends OrgLabelsRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

export class CreateOrgLabelRequest extends OrgLabelsRequest {
  @ValidateNested() @Type(() => CreateLabelBody) body: CreateLabelBody;
}

export class OrgLabelIdRequest extends OrgLabelsRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

export class EditOrgLabelRequest extends OrgLabelIdRequest {
  @ValidateNested() @Type(() => EditLabelBody) body: EditLabelBody;
}
