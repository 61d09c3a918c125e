import type { BranchDto, PayloadCommitVerificationDto, PayloadUserDto, UserDto } from '@cairn/contracts';
import type { CommitPerson, ParsedCommitObject } from '../git/commit-object.js';

function payloadUser(p: CommitPerson, users: Map<string, UserDto>): PayloadUserDto {
  return { name: p.name, email: p.email, username: users.get(p.email.toLowerCase())?.login ?? '' };
}

/** Gitea's `ToBranch` for an unprotected branch (Cairn has no branch protection yet). */
export function toBranchDto(
  name: string,
  sha: string,
  commit: ParsedCommitObject,
  htmlUrl: string,
  users: Map<string, UserDto>,
  canWrite: boolean,
  verification: PayloadCommitVerificationDto,
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
    protected: false,
    required_approvals: 0,
    enable_status_check: false,
    status_check_contexts: [],
    user_can_push: canWrite,
    user_can_merge: canWrite,
    effective_branch_protection_name: '',
  };
}
