import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  LatestPackageVersionRequest, LinkPackageRequest, ListPackagesRequest, ListPackageVersionsRequest, PackageApiSubjects,
  PackageRequest, PackageVersionRequest, type PackageDto, type PackageFileDto, type Paginated,
} from '@cairn/contracts';
import { RpcHandler } from '@cairn/platform';
import { PackagesApiService } from './packages-api.service.js';

@Controller()
export class PackagesApiHandler {
  constructor(private readonly api: PackagesApiService) {}

  @RpcHandler(PackageApiSubjects.packageList)
  list(@Payload() req: ListPackagesRequest): Promise<Paginated<PackageDto>> {
    return this.api.list(req);
  }

  @RpcHandler(PackageApiSubjects.versionList)
  versions(@Payload() req: ListPackageVersionsRequest): Promise<Paginated<PackageDto>> {
    return this.api.versions(req);
  }

  @RpcHandler(PackageApiSubjects.versionLatest)
  latest(@Payload() req: LatestPackageVersionRequest): Promise<PackageDto> {
    return this.api.latest(req);
  }

  @RpcHandler(PackageApiSubjects.versionGet)
  get(@Payload() req: PackageVersionRequest): Promise<PackageDto> {
    return this.api.get(req);
  }

  @RpcHandler(PackageApiSubjects.versionDelete)
  delete(@Payload() req: PackageVersionRequest): Promise<Record<string, never>> {
    return this.api.delete(req);
  }

  @RpcHandler(PackageApiSubjects.fileList)
  files(@Payload() req: PackageVersionRequest): Promise<PackageFileDto[]> {
    return this.api.files(req);
  }

  @RpcHandler(PackageApiSubjects.packageLink)
  link(@Payload() req: LinkPackageRequest): Promise<Record<string, never>> {
    return this.api.link(req);
  }

  @RpcHandler(PackageApiSubjects.packageUnlink)
  unlink(@Payload() req: PackageRequest): Promise<Record<string, never>> {
    return this.api.unlink(req);
  }
}
