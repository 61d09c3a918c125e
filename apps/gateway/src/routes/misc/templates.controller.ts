import { Controller, Get, Param } from '@nestjs/common';
import {
  RepoSubjects, type GitignoreTemplateDto, type LicenseTemplateDto, type LicenseTemplateEntryDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { PublicRoute } from '../../auth/policy.decorators.js';

/** The templates a new repository's `auto_init` can add (Gitea's `misc` routes): no authentication needed. */
@Controller()
export class TemplatesController {
  constructor(private readonly rpc: RpcClient) {}

  /** `GET /gitignore/templates`: the template names. */
  @Get('gitignore/templates')
  @PublicRoute()
  async gitignores(): Promise<string[]> {
    return (await this.rpc.send(RepoSubjects.templateList, {})).gitignores;
  }

  /** `GET /gitignore/templates/{name}`: `{name, source}` (404 when unknown). */
  @Get('gitignore/templates/:name')
  @PublicRoute()
  gitignore(@Param('name') name: string): Promise<GitignoreTemplateDto> {
    return this.rpc.send(RepoSubjects.templateGitignore, { name });
  }

  /** `GET /licenses`: `[{key, name, url}]`. */
  @Get('licenses')
  @PublicRoute()
  async licenses(): Promise<LicenseTemplateEntryDto[]> {
    return (await this.rpc.send(RepoSubjects.templateList, {})).licenses;
  }

  /** `GET /licenses/{name}`: the licence with its text, placeholders unfilled (404 when unknown). */
  @Get('licenses/:name')
  @PublicRoute()
  license(@Param('name') name: string): Promise<LicenseTemplateDto> {
    return this.rpc.send(RepoSubjects.templateLicense, { name });
  }
}
