/** Gitea's packages API; the gateway authenticates, packages-service applies the access rule. */
export const PackageApiSubjects = {
  /** An owner's package versions, newest first (`type`, `q`, paging). */
  packageList: 'packages.package.list',
  /** The versions of one package (newest first, or `sort=semver`). */
  versionList: 'packages.version.list',
  /** The latest version (highest id, or highest semantic version). */
  versionLatest: 'packages.version.latest',
  /** One version. */
  versionGet: 'packages.version.get',
  /** Delete one version (write access; `package` event `deleted`). */
  versionDelete: 'packages.version.delete',
  /** The files of one version. */
  fileList: 'packages.file.list',
  /** Link a package to a repository of its owner (write access). */
  packageLink: 'packages.package.link',
  /** Unlink a package from its repository (write access). */
  packageUnlink: 'packages.package.unlink',
} as const;
