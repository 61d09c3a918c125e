import { Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { ActorDto } from '../common/actor.js';
import { ListQuery } from '../common/pagination.js';
import { IssueIndexRequest } from './issues.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `label.ColorPattern`: `rrggbb` or `rgb`, with or without `#`. */
export const LABEL_COLOR_PATTERN = /^#?(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;
/** Longest label or milestone name (Gitea's columns are 255). */
export const LABEL_NAME_MAX_LENGTH = 255;

/** Gitea's `Label`. `color` is `rrggbb` (stored `#rrggbb`, answered without `#`, as Gitea's `convert.ToLabel`). */
export interface LabelDto {
  id: number;
  name: string;
  exclusive: boolean;
  is_archived: boolean;
  color: string;
  description: string;
  url: string;
}

/** Gitea's `Milestone`. */
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

/** `POST …/labels` (Gitea's `CreateLabelOption`). */
export class CreateLabelBody {
  @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) name: string;
  @IsString() @Matches(LABEL_COLOR_PATTERN, { message: 'color must be a hex color such as #00aabb or #0ab' }) color: string;
  @IsOptional() @IsString() @MaxLength(LABEL_NAME_MAX_LENGTH) description?: string;
  @IsOptional() @IsBoolean() exclusive?: boolean;
  @IsOptional() @IsBoolean() is_archived?: boolean;
}

/** `PATCH …/labels/{id}` (Gitea's `EditLabelOption`; every field optional). */
export class EditLabelBody {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) name?: string;
  @IsOptional() @IsString() @Matches(LABEL_COLOR_PATTERN, { message: 'color must be a hex color such as #00aabb or #0ab' }) color?: string;
  @IsOptional() @IsString() @MaxLength(LABEL_NAME_MAX_LENGTH) description?: string;
  @IsOptional() @IsBoolean() exclusive?: boolean;
  @IsOptional() @IsBoolean() is_archived?: boolean;
}

/**
 * `POST|PUT …/issues/{index}/labels` (Gitea's `IssueLabelsOption`): label ids, or label names — not both. The
 * element types are checked by repo-service (400, as Gitea).
 */
export class IssueLabelsBody {
  @IsArray() labels: unknown[];
}

/** `POST …/milestones` (Gitea's `CreateMilestoneOption`). */
export class CreateMilestoneBody {
  @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) title: string;
  @IsOptional() @IsString() @MaxLength(64 * 1024) description?: string;
  @IsOptional() @IsISO8601() due_on?: string;
  /** Empty: open (Gitea's Go SDK always sends the field). */
  @IsOptional() @IsIn(['', 'open', 'closed']) state?: '' | 'open' | 'closed';
}

/** `PATCH …/milestones/{id}` (Gitea's `EditMilestoneOption`; every field optional). */
export class EditMilestoneBody {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) title?: string;
  @IsOptional() @IsString() @MaxLength(64 * 1024) description?: string;
  @IsOptional() @IsISO8601() due_on?: string;
  @IsOptional() @IsIn(['open', 'closed']) state?: 'open' | 'closed';
}

/** `GET …/milestones` query. */
export class ListMilestonesQuery extends ListQuery {
  /** `open` (default), `closed` or `all`. */
  @IsOptional() @IsIn(['open', 'closed', 'all']) state?: 'open' | 'closed' | 'all';
  /** Only milestones whose title contains this (case-insensitive). */
  @IsOptional() @IsString() @MaxLength(LABEL_NAME_MAX_LENGTH) name?: string;
}

// ---- messages (repo-service) ------------------------------------------------------------------------------------

/** `repo.label.list`. */
export class ListLabelsRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.label.create`. */
export class CreateLabelRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateLabelBody) body: CreateLabelBody;
}

/** One label of a repository, by id. */
export class LabelIdRequest extends RepoScopedRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

/** `repo.label.edit`. */
export class EditLabelRequest extends LabelIdRequest {
  @ValidateNested() @Type(() => EditLabelBody) body: EditLabelBody;
}

/** `repo.issue-label.add` / `repo.issue-label.replace`. */
export class IssueLabelsRequest extends IssueIndexRequest {
  @ValidateNested() @Type(() => IssueLabelsBody) body: IssueLabelsBody;
}

/** `repo.issue-label.remove`: one label off an issue. */
export class IssueLabelIdRequest extends IssueIndexRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

/** `repo.milestone.list`. */
export class ListMilestonesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ListMilestonesQuery) query: ListMilestonesQuery;
}

/** `repo.milestone.create`. */
export class CreateMilestoneRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => CreateMilestoneBody) body: CreateMilestoneBody;
}

/** One milestone, by id or, failing that, by title (Gitea's `getMilestoneByIDOrName`). */
export class MilestoneIdRequest extends RepoScopedRequest {
  @IsString() @MinLength(1) @MaxLength(LABEL_NAME_MAX_LENGTH) id: string;
}

/** `repo.milestone.edit`. */
export class EditMilestoneRequest extends MilestoneIdRequest {
  @ValidateNested() @Type(() => EditMilestoneBody) body: EditMilestoneBody;
}

/** Every message about the labels of an organization (`/orgs/{org}/labels…`), by the organization's name. */
export class OrgLabelsRequest {
  @IsOptional() @ValidateNested() @Type(() => ActorDto) actor: ActorDto | null;
  @IsString() @MinLength(1) @MaxLength(255) org: string;
}

/** `repo.org-label.list`. */
export class ListOrgLabelsRequest extends OrgLabelsRequest {
  @ValidateNested() @Type(() => ListQuery) query: ListQuery;
}

/** `repo.org-label.create`. */
export class CreateOrgLabelRequest extends OrgLabelsRequest {
  @ValidateNested() @Type(() => CreateLabelBody) body: CreateLabelBody;
}

/** One label of an organization, by id. */
export class OrgLabelIdRequest extends OrgLabelsRequest {
  @Type(() => Number) @IsInt() @Min(1) id: number;
}

/** `repo.org-label.edit`. */
export class EditOrgLabelRequest extends OrgLabelIdRequest {
  @ValidateNested() @Type(() => EditLabelBody) body: EditLabelBody;
}
