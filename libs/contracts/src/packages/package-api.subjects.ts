/**
 * NATS request-reply subjects of Gitea's packages API (`/api/v1/packages/{owner}…`), served by packages-service
 * (queue group `packages-service`). The gateway authenticates; packages-service applies the access rule.
 */
export const PackageApiSubjects = {
  /** An owner's package versions, newest first (`type`, `q`, paging): {@link ListPackagesRequest} → `Paginated<PackageDto>`. */
  packageList: 'packages.package.list',
  /** The versions of one package (newest first, or `sort=semver`): {@link ListPackageVersionsRequest} → `Paginated<PackageDto>`. */
  versionList: 'packages.version.list',
  /** The latest version (highest id, or highest semantic version): {@link LatestPackageVersionRequest} → {@link PackageDto}. */
  versionLatest: 'packages.version.latest',
  /** One version: {@link PackageVersionRequest} → {@link PackageDto}. */
  versionGet: 'packages.version.get',
  /** Delete one version (write access; `package` event `deleted`): {@link PackageVersionRequest} → `{}`. */
  versionDelete: 'packages.version.delete',
  /** The files of one version: {@link PackageVersionRequest} → {@link PackageFileDto}`[]`. */
  fileList: 'packages.file.list',
  /** Link a package to a repository of its owner (write access): {@link LinkPackageRequest} → `{}`. */
  packageLink: 'packages.package.link',
  /** Unlink a package from its repository (write access): {@link PackageRequest} → `{}`. */
  packageUnlink: 'packages.package.unlink',
} as const;
