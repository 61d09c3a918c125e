import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  LatestPackageVersionQuery, ListPackagesQuery, ListPackageVersionsQuery, PackageApiSubjects, type ActorDto,
  type Paginated, type PackageDto, type PackageFileDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/**
 * `/packages/{owner}…`: Gitea's packages API. Every call needs a signed-in caller and a `package` token scope;
 * packages-service applies the owner's access rule (Gitea's `determineAccessMode`) to each.
 */
@Controller('packages/:owner')
@ScopeCategoryOf('package')
@SignInRequired()
export class PackagesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @Paged()
  list(@CurrentActor() actor: ActorDto, @Param('owner') owner: string, @Query() query: ListPackagesQuery): Promise<Paginated<PackageDto>> {
    return this.rpc.send(PackageApiSubjects.packageList, { actor, owner, query });
  }

  @Get(':type/:name')
  @Paged()
  versions(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
    @Query() query: ListPackageVersionsQuery,
  ): Promise<Paginated<PackageDto>> {
    return this.rpc.send(PackageApiSubjects.versionList, { actor, owner, type, name, query });
  }

  @Get(':type/:name/-/latest')
  latest(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
    @Query() query: LatestPackageVersionQuery,
  ): Promise<PackageDto> {
    return this.rpc.send(PackageApiSubjects.versionLatest, { actor, owner, type, name, semver: query.semver });
  }

  @Post(':type/:name/-/link/:repo_name')
  @HttpCode(201)
  async link(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
    @Param('repo_name') repo: string,
  ): Promise<void> {
    await this.rpc.send(PackageApiSubjects.packageLink, { actor, owner, type, name, repo });
  }

  @Post(':type/:name/-/unlink')
  @HttpCode(204)
  async unlink(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
  ): Promise<void> {
    await this.rpc.send(PackageApiSubjects.packageUnlink, { actor, owner, type, name });
  }

  @Get(':type/:name/:version')
  get(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
    @Param('version') version: string,
  ): Promise<PackageDto> {
    return this.rpc.send(PackageApiSubjects.versionGet, { actor, owner, type, name, version });
  }

  @Delete(':type/:name/:version')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
    @Param('version') version: string,
  ): Promise<void> {
    await this.rpc.send(PackageApiSubjects.versionDelete, { actor, owner, type, name, version });
  }

  @Get(':type/:name/:version/files')
  files(
    @CurrentActor() actor: ActorDto,
    @Param('owner') owner: string,
    @Param('type') type: string,
    @Param('name') name: string,
    @Param('version') version: string,
  ): Promise<PackageFileDto[]> {
    return this.rpc.send(PackageApiSubjects.fileList, { actor, owner, type, name, version });
  }
}
