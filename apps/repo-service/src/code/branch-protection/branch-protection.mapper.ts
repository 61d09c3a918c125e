import { toApiTime } from '@cairn/contracts';
import type { BranchProtectionDto, UserDto } from '@cairn/contracts';
import type { BranchProtectionRow } from './branch-protection.repository.js';

/** Gitea's `BranchProtection` JSON; `users` renders the stored user ids as logins (unknown ids are left out). */
export function toBranchProtectionDto(row: BranchProtectionRow, users: Map<number, UserDto>): BranchProtectionDto {
  const logins = (ids: number[]) => ids.flatMap((id) => (users.has(id) ? [users.get(id)!.login] : []));
  return {
    branch_name: row.ruleName,
    rule_name: row.ruleName,
    priority: row.priority,
    enable_push: row.canPush,
    enable_push_whitelist: row.enableWhitelist,
    push_whitelist_usernames: logins(row.whitelistUserIds),
    push_whitelist_teams: row.whitelistTeams,
    push_whitelist_deploy_keys: row.whitelistDeployKeys,
    enable_force_push: row.canForcePush,
    enable_force_push_allowlist: row.enableForcePushAllowlist,
    force_push_allowlist_usernames: logins(row.forcePushAllowlistUserIds),
    force_push_allowlist_teams: row.forcePushAllowlistTeams,
    force_push_allowlist_deploy_keys: row.forcePushAllowlistDeployKeys,
    enable_merge_whitelist: row.enableMergeWhitelist,
    merge_whitelist_usernames: logins(row.mergeWhitelistUserIds),
    merge_whitelist_teams: row.mergeWhitelistTeams,
    enable_status_check: row.enableStatusCheck,
    status_check_contexts: row.statusCheckContexts,
    required_approvals: row.requiredApprovals,
    enable_approvals_whitelist: row.enableApprovalsWhitelist,
    approvals_whitelist_username: logins(row.approvalsWhitelistUserIds),
    approvals_whitelist_teams: row.approvalsWhitelistTeams,
    block_on_rejected_reviews: row.blockOnRejectedReviews,
    block_on_official_review_requests: row.blockOnOfficialReviewRequests,
    block_on_outdated_branch: row.blockOnOutdatedBranch,
    dismiss_stale_approvals: row.dismissStaleApprovals,
    ignore_stale_approvals: row.ignoreStaleApprovals,
    require_signed_commits: row.requireSignedCommits,
    protected_file_patterns: row.protectedFilePatterns,
    unprotected_file_patterns: row.unprotectedFilePatterns,
    block_admin_merge_override: row.blockAdminMergeOverride,
    created_at: toApiTime(row.createdAt),
    updated_at: toApiTime(row.updatedAt),
  };
}

export function userIdsOf(rows: BranchProtectionRow[]): number[] {
  return rows.flatMap((r) => [
    ...r.whitelistUserIds, ...r.forcePushAllowlistUserIds, ...r.mergeWhitelistUserIds, ...r.approvalsWhitelistUserIds,
  ]);
}

/** What a branch's protection rule says, for the viewer (Gitea's `ToBranch` with a rule). */
export interface BranchStanding {
  ruleName: string;
  requiredApprovals: number;
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  userCanPush: boolean;
  userCanMerge: boolean;
}
