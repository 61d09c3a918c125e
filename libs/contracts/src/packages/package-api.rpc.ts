import type { Paginated } from '../common/pagination.js';
import type { RpcPair } from '../rpc-contract.js';
import type { PackageApiSubjects } from './package-api.subjects.js';
import type {
  LatestPackageVersionRequest, LinkPackageRequest, ListPackagesRequest, ListPackageVersionsRequest, PackageDto,
  PackageFileDto, PackageRequest, PackageVersionRequest,
} from './package-api.dto.js';

export interface PackageApiRpc {
  [PackageApiSubjects.packageList]: RpcPair<ListPackagesRequest, Paginated<PackageDto>>;
  [PackageApiSubjects.versionList]: RpcPair<ListPackageVersionsRequest, Paginated<PackageDto>>;
  [PackageApiSubjects.versionLatest]: RpcPair<LatestPackageVersionRequest, PackageDto>;
  [PackageApiSubjects.versionGet]: RpcPair<PackageVersionRequest, PackageDto>;
  [PackageApiSubjects.versionDelete]: RpcPair<PackageVersionRequest, Record<string, never>>;
  [PackageApiSubjects.fileList]: RpcPair<PackageVersionRequest, PackageFileDto[]>;
  [PackageApiSubjects.packageLink]: RpcPair<LinkPackageRequest, Record<string, never>>;
  [PackageApiSubjects.packageUnlink]: RpcPair<PackageRequest, Record<string, never>>;
}
