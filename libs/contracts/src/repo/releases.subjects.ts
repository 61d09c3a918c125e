/** Served by repo-service; writes need write access (re-checked there). */
export const ReleaseSubjects = {
  /** List releases, newest first (drafts only for writers). */
  list: 'repo.release.list',
  /** One release by id. */
  get: 'repo.release.get',
  /** One release by tag name. */
  getByTag: 'repo.release.get-by-tag',
  /** The newest published non-pre-release. */
  latest: 'repo.release.latest',
  /** Create a release (its tag too, unless a draft). */
  create: 'repo.release.create',
  /** Edit a release (publishing a draft creates its tag). */
  edit: 'repo.release.edit',
  /** Delete a release, keeping its tag. */
  delete: 'repo.release.delete',
  /** Delete the release of a tag, keeping the tag. */
  deleteByTag: 'repo.release.delete-by-tag',
  /** A release's attachments, oldest first. */
  assetList: 'repo.release.asset.list',
  /** One attachment of a release. */
  assetGet: 'repo.release.asset.get',
  /** Rename an attachment (writers). */
  assetEdit: 'repo.release.asset.edit',
  /** Delete an attachment and its bytes (writers). */
  assetDelete: 'repo.release.asset.delete',
  /** An attachment about to be downloaded, counted as downloaded (the bytes come from the internal HTTP endpoint). */
  assetDownload: 'repo.release.asset.download',
  /** The repository of an attachment uuid (`/attachments/{uuid}`; access is checked next). */
  assetLocate: 'repo.release.asset.locate',
} as const;
