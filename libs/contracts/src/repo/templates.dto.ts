import { IsString, MaxLength } from 'class-validator';

export class ListTemplatesRequest {}

export interface LicenseTemplateEntryDto {
  key: string;
  name: string;
  url: string;
}

export interface TemplateCatalogueReply {
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

export interface LicenseTemplateDto extends LicenseTemplateEntryDto {
  body: string;
  implementation: string;
}
