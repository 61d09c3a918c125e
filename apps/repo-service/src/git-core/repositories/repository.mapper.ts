import {
  accessAtLeast, repoUrls,
  type AccessLevel, type MergeSettings, type SshUrlSettings, type RepoEventRepository, type RepositoryDto, type RepositorySummaryDto, type UserDto, EPOCH_TIME, toApiTime
} from '@cairn/contracts';
import type { RepositoryRow } from './repositories.repository.js';

export interface RepoUrlSettings extends SshUrlSettings {
  rootUrl: string;
}


export function hostOf(rootUrl: string): string {
  return new URL(rootUrl).hostname;
}

/** The settings the merge and update rules (`mergeStyleAllowed`) read; off while the pull request unit is disabled. */
export function mergeSettingsOf(row: RepositoryRow): MergeSettings {
  const pulls = row.hasPullRequests;
  return {
    allow_merge_commits: pulls && row.allowMergeCommits,
    allow_rebase: pulls && row.allowRebase,
    allow_rebase_explicit: pulls && row.allowRebaseExplicit,
    allow_squash_merge: pulls && row.allowSquashMerge,
    allow_fast_forward_only_merge: pulls && row.allowFastForwardOnlyMerge,
    allow_rebase_update: pulls && row.allowRebaseUpdate,
    allow_manual_merge: pulls && row.allowManualMerge,
  };
}

/** Gitea's `Repository` JSON, with the permissions of a caller whose access is `access`. */
export function toRepositoryDto(
  row: RepositoryRow,
  owner: UserDto,
  access: AccessLevel,
  urls: RepoUrlSettings,
  /** A fork's parent as the caller may see it (Gitea leaves it out when they may not). */
  parent: RepositoryDto | null = null,
): RepositoryDto {
  const fullName = `${row.ownerName}/${row.name}`;
  const links = repoUrls(urls.rootUrl, row);
  const apiUrl = links.api;
  const pulls = row.hasPullRequests;
  return {
    id: row.id,
    owner,
    name: row.name,
    full_name: fullName,
    description: row.description,
    empty: row.isEmpty,
    private: row.isPrivate,
    fork: row.isFork,
    template: row.isTemplate,
    parent: row.isFork ? parent : null,
    mirror: false,
    size: row.size,
    language: '',
    languages_url: `${apiUrl}/languages`,
    html_url: links.html,
    url: apiUrl,
    link: '',
    ssh_url: links.ssh(urls),
    clone_url: links.clone,
    original_url: '',
    website: row.website,
    stars_count: row.numStars,
    forks_count: row.numForks,
    watchers_count: row.numWatches,
    open_issues_count: row.numIssues - row.numClosedIssues,
    open_pr_counter: row.numPulls - row.numClosedPulls,
    release_counter: 0,
    default_branch: row.defaultBranch,
    archived: row.isArchived,
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
    archived_at: row.isArchived && row.archivedAt ? toApiTime(row.archivedAt) : EPOCH_TIME,
    permissions: {
      admin: accessAtLeast(access, 'admin'),
      push: accessAtLeast(access, 'write'),
      pull: accessAtLeast(access, 'read'),
    },
    has_issues: row.hasIssues,
    ...(row.hasIssues
      ? {
          internal_tracker: {
            enable_time_tracker: true,
            allow_only_contributors_to_track_time: true,
            enable_issue_dependencies: true,
          },
        }
      : {}),
    has_wiki: false,
    has_pull_requests: pulls,
    has_projects: false,
    has_releases: row.hasReleases,
    has_packages: row.hasPackages,
    has_actions: row.hasActions,
    // Like Gitea, the pull request settings read as off while the unit is disabled.
    ignore_whitespace_conflicts: pulls && row.ignoreWhitespaceConflicts,
    ...mergeSettingsOf(row),
    autodetect_manual_merge: pulls && row.autodetectManualMerge,
    default_delete_branch_after_merge: pulls && row.defaultDeleteBranchAfterMerge,
    default_merge_style: pulls ? row.defaultMergeStyle : 'merge',
    default_allow_maintainer_edit: pulls && row.defaultAllowMaintainerEdit,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: row.objectFormat === 'sha256' ? 'sha256' : 'sha1',
    topics: row.topics,
    licenses: [],
  };
}

/** The header fields of {@link toRepositoryDto}, from the row alone. */
export function toRepositorySummary(row: RepositoryRow, urls: RepoUrlSettings): RepositorySummaryDto {
  const links = repoUrls(urls.rootUrl, row);
  return {
    description: row.description,
    website: row.website,
    archived: row.isArchived,
    html_url: links.html,
    clone_url: links.clone,
    ssh_url: links.ssh(urls),
    open_issues_count: row.numIssues - row.numClosedIssues,
    open_pr_counter: row.numPulls - row.numClosedPulls,
  };
}

export function toEventRepository(row: RepositoryRow, owner: UserDto, urls: RepoUrlSettings): RepoEventRepository {
  return {
    id: row.id,
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    ownerKind: row.ownerKind === 'organization' ? 'organization' : 'user',
    name: row.name,
    fullName: `${row.ownerName}/${row.name}`,
    private: row.isPrivate,
    defaultBranch: row.defaultBranch,
    json: toRepositoryDto(row, owner, 'owner', urls) as unknown as Record<string, unknown>,
  };
}
