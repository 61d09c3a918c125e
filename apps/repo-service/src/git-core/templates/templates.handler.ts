import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DomainError, GetTemplateRequest, ListTemplatesRequest, RepoSubjects, type GitignoreTemplateDto,
  type LicenseTemplateDto, type LicenseTemplateEntryDto, type TemplateCatalogueReply,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcHandler, type CommonSettings } from '@cairn/platform';
import { TemplateCatalogue, type LicenseTemplate } from './template-catalogue.js';

/** Gitea's `implementation` of every licence (kept for GitHub's API, which has it). */
const IMPLEMENTATION =
  'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file';

/** `GET /gitignore/templates[/{name}]`, `GET /licenses[/{name}]` and the New repository page's choices. */
@Controller()
export class TemplatesHandler {
  constructor(
    private readonly catalogue: TemplateCatalogue,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  @RpcHandler(RepoSubjects.templateList)
  list(@Payload() _req: ListTemplatesRequest): TemplateCatalogueReply {
    return {
      gitignores: this.catalogue.gitignoreNames(),
      licenses: this.catalogue.licenseList().map((l) => this.entry(l)),
    };
  }

  @RpcHandler(RepoSubjects.templateGitignore)
  gitignore(@Payload() req: GetTemplateRequest): GitignoreTemplateDto {
    const template = this.catalogue.gitignore(req.name);
    if (!template) throw DomainError.notFound(`gitignore template "${req.name}" not found`);
    return template;
  }

  @RpcHandler(RepoSubjects.templateLicense)
  license(@Payload() req: GetTemplateRequest): LicenseTemplateDto {
    const license = this.catalogue.license(req.name);
    if (!license) throw DomainError.notFound(`license "${req.name}" not found`);
    return { ...this.entry(license), body: license.text, implementation: IMPLEMENTATION };
  }

  /** Gitea's `url` is where its own API serves the licence, not the licence's home page. */
  private entry(license: LicenseTemplate): LicenseTemplateEntryDto {
    return {
      key: license.key,
      name: license.name,
      url: `${this.common.rootUrl}api/v1/licenses/${encodeURIComponent(license.key)}`,
    };
  }
}
