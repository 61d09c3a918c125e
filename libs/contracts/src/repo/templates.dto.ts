import { IsString, MaxLength } from 'class-validator';

export class ListTemplatesRequest {}

export interface LicenseTemplateEntryDto {
  /** What `license` of a repository creation names. */
  key: string;
  name: string;
  /** As Gitea answers. */
  url: string;
}

export interface TemplateCatalogueReply {
  /** Sorted case-insensitively. */
  gitignores: string[];
  licenses: LicenseTemplateEntryDto[];
}

export class GetTemplateRequest {
  @IsString() @MaxLength(255) name: string;
}

export interface GitignoreTemplateDto {
  name: string;
  source: string;
}

/** The placeholders (`<year>`, `<owner>`…) are unfilled. */
export interface LicenseTemplateDto extends LicenseTemplateEntryDto {
  body: string;
  implementation: string;
}
