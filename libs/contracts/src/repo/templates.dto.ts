import { IsString, MaxLength } from 'class-validator';

/** `repo.template.list`: every template the instance has (no parameters; the API's lists and the New repository page). */
export class ListTemplatesRequest {}

/** Gitea's `LicensesTemplateListEntry`. */
export interface LicenseTemplateEntryDto {
  /** The SPDX identifier (`MIT`, `Apache-2.0`), what `license` of a repository creation names. */
  key: string;
  name: string;
  /** Where the API serves the licence (`<ROOT_URL>api/v1/licenses/<key>`), as Gitea answers. */
  url: string;
}

export interface TemplateCatalogueReply {
  /** The `.gitignore` template names, sorted case-insensitively (what `gitignores` of a creation names). */
  gitignores: string[];
  licenses: LicenseTemplateEntryDto[];
}

/** `repo.template.gitignore` / `repo.template.license`: one template by name (NOT_FOUND when there is none). */
export class GetTemplateRequest {
  @IsString() @MaxLength(255) name: string;
}

/** Gitea's `GitignoreTemplateInfo`. */
export interface GitignoreTemplateDto {
  name: string;
  source: string;
}

/** Gitea's `LicenseTemplateInfo`: the licence text with its placeholders (`<year>`, `<owner>`…) unfilled. */
export interface LicenseTemplateDto extends LicenseTemplateEntryDto {
  body: string;
  implementation: string;
}
