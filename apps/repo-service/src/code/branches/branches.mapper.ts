import type { BranchDto, PayloadCommitVerificationDto, PayloadUserDto, UserDto } from '@cairn/contracts';
import type { CommitPerson, ParsedCommitObject } from '@cairn/git';
import type { BranchStanding } from '../branch-protection/branch-protection.mapper.js';

function payloadUser(p: CommitPerson, users: Map<string, UserDto>): PayloadUserDto {
  return { name: p.name, email: p.email, username: users.get(p.email.toLowerCase())?.login ?? '' };
}

/** Gitea's `ToBranch`; `standing` is the branch's protection (null: unprotected, writers may push and merge). */
export function toBranchDto(
  name: string,
  sha: string,
  commit: ParsedCommitObject,
  htmlUrl: string,
  users: Map<string, UserDto>,
  canWrite: boolean,
  verification: PayloadCommitVerificationDto,
  standing: BranchStanding | null = null,
): BranchDto {
  return {
    name,
    commit: {
      id: sha,
      message: commit.message,
      url: `${htmlUrl}/commit/${sha}`,
      author: payloadUser(commit.author, users),
      committer: payloadUser(commit.committer, users),
      verification,
      timestamp: commit.author.date,
      added: null,
      removed: null,
      modified: null,
    },
    protected: standing !== null,
    required_approvals: standing?.requiredApprovals ?? 0,
    enable_status_check: standing?.enableStatusCheck ?? false,
    status_check_contexts: standing?.statusCheckContexts ?? [],
    user_can_push: standing ? standing.userCanPush : canWrite,
    user_can_merge: standing ? standing.userCanMerge : canWrite,
    effective_branch_protection_name: standing?.ruleName ?? '',
  };
}
