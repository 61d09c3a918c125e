/** NATS request-reply subjects for releases, served by repo-service. Writes need write access (re-checked there). */
export const ReleaseSubjects = {
  /** List releases, newest first (drafts only for writers): `ListReleasesRequest` → `Paginated<ReleaseDto>`. */
  list: 'repo.release.list',
  /** One release by id: `ReleaseIdRequest` → `ReleaseDto`. */
  get: 'repo.release.get',
  /** One release by tag name: `ReleaseTagRequest` → `ReleaseDto`. */
  getByTag: 'repo.release.get-by-tag',
  /** The newest published non-pre-release: `RepoScopedRequest` → `ReleaseDto`. */
  latest: 'repo.release.latest',
  /** Create a release (its tag too, unless a draft): `CreateReleaseRequest` → `ReleaseDto`. */
  create: 'repo.release.create',
  /** Edit a release (publishing a draft creates its tag): `EditReleaseRequest` → `ReleaseDto`. */
  edit: 'repo.release.edit',
  /** Delete a release, keeping its tag: `ReleaseIdRequest` → `null`. */
  delete: 'repo.release.delete',
  /** Delete the release of a tag, keeping the tag: `ReleaseTagRequest` → `null`. */
  deleteByTag: 'repo.release.delete-by-tag',
  /** A release's attachments, oldest first: `ReleaseIdRequest` → `AttachmentDto[]`. */
  assetList: 'repo.release.asset.list',
  /** One attachment of a release: `ReleaseAssetRequest` → `AttachmentDto`. */
  assetGet: 'repo.release.asset.get',
  /** Rename an attachment (writers): `EditReleaseAssetRequest` → `AttachmentDto`. */
  assetEdit: 'repo.release.asset.edit',
  /** Delete an attachment and its bytes (writers): `ReleaseAssetRequest` → `null`. */
  assetDelete: 'repo.release.asset.delete',
  /**
   * An attachment about to be downloaded (by release tag and name, or by uuid), counted as downloaded:
   * `AssetDownloadRequest` → `AssetDownloadReply` (the bytes come from the internal HTTP endpoint).
   */
  assetDownload: 'repo.release.asset.download',
  /** The repository of an attachment uuid (`/attachments/{uuid}`; access is checked next): `AssetLocateRequest` → `AssetLocateReply`. */
  assetLocate: 'repo.release.asset.locate',
} as const;
