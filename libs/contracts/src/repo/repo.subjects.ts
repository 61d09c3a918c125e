/** NATS request-reply subjects served by repo-service (queue group `repo-service`). Add new ones here. */
export const RepoSubjects = {
  /** Health check. */
  health: 'repo.health.check',
  /**
   * Resolve `{owner}/{repo}` and the actor's access to it, once per request (the gateway's repository guard).
   * Replies {@link RepoAccessReply}; a repository the actor cannot see is NOT_FOUND, never PERMISSION_DENIED.
   */
  accessResolve: 'repo.access.resolve',
  /** Get one branch (Gitea `Branch`, with its head commit): `{actor, repo, access, branch}`. */
  branchGet: 'repo.branch.get',

  /** Create a repository: {@link CreateRepositoryRequest} → `RepositoryDto`. */
  repositoryCreate: 'repo.repository.create',
  /** Get a repository: `RepoScopedRequest` → `RepositoryDto` (permissions are the caller's). */
  repositoryGet: 'repo.repository.get',
  /**
   * A repository's header, as the web pages show it: `RepoScopedRequest` → {@link RepositorySummaryDto}. No owner lookup
   * (`repositoryGet` asks identity-service for the owner), so it costs one row read.
   */
  repositorySummary: 'repo.repository.summary',
  /** Get a repository by id: {@link GetRepositoryByIdRequest} → `RepositoryDto`; one the actor cannot see is NOT_FOUND. */
  repositoryGetById: 'repo.repository.get-by-id',
  /**
   * Fork a repository into the actor or one of their organizations: {@link ForkRepositoryRequest} → the fork's
   * `RepositoryDto` (ALREADY_EXISTS when the name is taken or the owner has a fork of it already).
   */
  repositoryFork: 'repo.repository.fork',
  /** A page of a repository's forks the actor may see: {@link ListForksRequest} → `Paginated<RepositoryDto>`. */
  repositoryForks: 'repo.repository.forks',
  /** Edit a repository (repo admin): {@link EditRepositoryRequest} → `RepositoryDto`. */
  repositoryEdit: 'repo.repository.edit',
  /**
   * Move a repository to another owner (repo owner; the actor must be able to create repositories there, or be a site
   * admin): {@link TransferRepositoryRequest} → the moved `RepositoryDto`.
   */
  repositoryTransfer: 'repo.repository.transfer',
  /** Delete a repository and its storage (repo owner or site admin): `RepoScopedRequest` → `null`. */
  repositoryDelete: 'repo.repository.delete',
  /** List an owner's, or the caller's, repositories: {@link ListRepositoriesRequest} → `Paginated<RepositoryDto>`. */
  repositoryList: 'repo.repository.list',
  /** Search repositories visible to the caller: {@link SearchRepositoriesRequest} → `Paginated<RepositoryDto>`. */
  repositorySearch: 'repo.repository.search',
  /** Count an owner's repositories (deleting an owner is refused while it has any): {@link OwnedRepositoriesRequest}. */
  repositoryOwnedCount: 'repo.repository.owned-count',
  /**
   * The repositories among some ids the actor may see, with the actor's permissions (packages-service renders linked
   * repositories): {@link VisibleRepositoriesRequest} → `RepositoryDto[]`.
   */
  repositoryVisible: 'repo.repository.visible',

  /**
   * A team's repositories (org members and site admins): {@link TeamRepositoriesRequest} → `Paginated<RepositoryDto>`.
   */
  teamRepoList: 'repo.team-repo.list',
  /** One repository of a team, NOT_FOUND when not given to it: {@link TeamRepositoryRequest} → `RepositoryDto`. */
  teamRepoGet: 'repo.team-repo.get',
  /** Give a team a repository (repo admins): {@link TeamRepositoryRequest} → `null`. */
  teamRepoAdd: 'repo.team-repo.add',
  /** Take a repository from a team (repo admins): {@link TeamRepositoryRequest} → `null`. */
  teamRepoRemove: 'repo.team-repo.remove',

  /**
   * The actor's notification threads, newest first, of one repository when `repo` is set:
   * {@link ListNotificationsRequest} → `Paginated<NotificationThreadDto>`.
   */
  notificationList: 'repo.notification.list',
  /** Change the status of the actor's threads: {@link ReadNotificationsRequest} → `NotificationThreadDto[]` (changed). */
  notificationRead: 'repo.notification.read',
  /** The actor's unread threads: {@link NotificationCountRequest} → `NotificationCountDto`. */
  notificationCount: 'repo.notification.count',
  /** One thread (its user or a site admin): {@link NotificationThreadRequest} → `NotificationThreadDto`. */
  notificationThreadGet: 'repo.notification.thread-get',
  /** Change one thread's status (default `read`): {@link NotificationThreadRequest} → `NotificationThreadDto`. */
  notificationThreadRead: 'repo.notification.thread-read',

  /** List a repository's collaborators: {@link ListCollaboratorsRequest} → `Paginated<UserDto>`. */
  collaboratorList: 'repo.collaborator.list',
  /** Is a user a collaborator: {@link CollaboratorRequest} → `boolean`. */
  collaboratorCheck: 'repo.collaborator.check',
  /** Add or update a collaborator (repo admin): {@link AddCollaboratorRequest} → `null`. */
  collaboratorAdd: 'repo.collaborator.add',
  /** Remove a collaborator (repo admin): {@link CollaboratorRequest} → `null`. */
  collaboratorRemove: 'repo.collaborator.remove',
  /** A user's effective permission: {@link CollaboratorRequest} → `RepoCollaboratorPermissionDto`. */
  collaboratorPermission: 'repo.collaborator.permission',

  /** A repository's deploy keys (repo admin): {@link ListDeployKeysRequest} → `Paginated<DeployKeyDto>`. */
  deployKeyList: 'repo.deploy-key.list',
  /** Add a deploy key (repo admin): {@link CreateDeployKeyRequest} → `DeployKeyDto`. */
  deployKeyCreate: 'repo.deploy-key.create',
  /** One deploy key of the repository (repo admin): {@link DeployKeyIdRequest} → `DeployKeyDto`. */
  deployKeyGet: 'repo.deploy-key.get',
  /** Remove a deploy key (repo admin): {@link DeployKeyIdRequest} → `null`. */
  deployKeyDelete: 'repo.deploy-key.delete',
  /** Is this key (fingerprint) some repository's deploy key: {@link DeployKeyFingerprintRequest} → `boolean`. */
  deployKeyFingerprintUsed: 'repo.deploy-key.fingerprint-used',

  /** Star or watch a repository, or stop: {@link SetFollowRequest} → `FollowStateReply`. */
  followSet: 'repo.follow.set',
  /** Does the actor star/watch the repository: {@link CheckFollowRequest} → `FollowStateReply`. */
  followCheck: 'repo.follow.check',
  /** A repository's stargazers / subscribers: {@link ListFollowersRequest} → `Paginated<UserDto>`. */
  followFollowers: 'repo.follow.followers',
  /** What a user stars / watches, as the actor may see it: {@link ListFollowedRequest} → `Paginated<RepositoryDto>`. */
  followFollowed: 'repo.follow.followed',

  /** Contents of a path at a ref: {@link GetContentsRequest} → {@link GetContentsReply} (file with content, or dir). */
  contentsGet: 'repo.contents.get',
  /** Batch file contents (Gitea `/file-contents`): {@link GetFileContentsRequest} → {@link GetFileContentsReply}. */
  fileContents: 'repo.file-contents.get',
  /** Raw bytes of a file: {@link GetRawRequest} → {@link GetRawReply} (bytes inline only up to a cap). */
  rawGet: 'repo.raw.get',
  /**
   * Create, update, rename or delete files in one commit (every contents write route): {@link ChangeFilesRequest} →
   * {@link ChangeFilesReply}. Recorded like a push (push event, pull requests following the branch).
   */
  contentsChange: 'repo.contents.change',
  /** List commits (sha, path, not, since/until, paging): {@link ListCommitsRequest} → {@link CommitListReply}. */
  commitList: 'repo.commit.list',
  /**
   * Compare two refs (`base...head` or `base..head`; branches, tags or commits): {@link CompareRequest} →
   * {@link CompareDto} (the newest commits of head missing from base, at most `[git] COMMITS_RANGE_SIZE`, and their
   * total).
   */
  compare: 'repo.compare',
  /** Get one commit by ref or sha: {@link GetCommitRequest} → `CommitDto`. */
  commitGet: 'repo.commit.get',
  /**
   * One commit's unified diff against its first parent, or against its merge base with `base` (the web UI's commit,
   * compare and pull-request files pages): {@link GetCommitDiffRequest} → {@link CommitDiffReply} (no patch,
   * `tooLarge`, past the request's byte cap).
   */
  commitDiff: 'repo.commit.diff',
  /** List branches: {@link ListBranchesRequest} → `Paginated<BranchDto>`. */
  branchList: 'repo.branch.list',
  /** Create a branch from a branch, tag or commit (write access): {@link CreateBranchRequest} → `BranchDto`. */
  branchCreate: 'repo.branch.create',
  /**
   * Delete a branch (write access; not the default branch): {@link DeleteBranchRequest} → `null`. Recorded like a
   * push that deletes it (push/delete events, the open pull requests from it closed).
   */
  branchDelete: 'repo.branch.delete',
  /**
   * Rename a branch (write access; the default branch and branches with a rule of their own name need repository
   * admin): {@link RenameBranchRequest} → `null`. The default branch, a rule naming the branch and open pull requests
   * follow; recorded like a push that deletes the old name and creates the new one.
   */
  branchRename: 'repo.branch.rename',
  /** A page of a repository's topics: {@link ListTopicsRequest} → {@link ListTopicsReply}. */
  topicList: 'repo.topic.list',
  /** Replace a repository's topics (repo admin): {@link ReplaceTopicsRequest} → `null`. */
  topicReplace: 'repo.topic.replace',
  /** Add one topic (repo admin): {@link TopicRequest} → `null`. */
  topicAdd: 'repo.topic.add',
  /** Remove one topic (repo admin; NOT_FOUND when absent): {@link TopicRequest} → `null`. */
  topicDelete: 'repo.topic.delete',
  /**
   * Who last changed each line of a file (the web UI's blame page; `git blame --porcelain`): {@link BlameRequest} →
   * {@link BlameReply}.
   */
  blame: 'repo.blame',
  /** Branch and tag names (the web UI's ref switcher): {@link ListRefNamesRequest} → {@link RefNamesReply}. */
  refNames: 'repo.ref.names',
  /** The instance signing key's public half: {@link GetSigningKeyRequest} → {@link SigningKeyReply}. */
  signingKeyGet: 'repo.signing-key.get',
  /** The `.gitignore` and licence templates `auto_init` can add: {@link ListTemplatesRequest} → {@link TemplateCatalogueReply}. */
  templateList: 'repo.template.list',
  /** One `.gitignore` template: {@link GetTemplateRequest} → {@link GitignoreTemplateDto} (NOT_FOUND when unknown). */
  templateGitignore: 'repo.template.gitignore',
  /** One licence: {@link GetTemplateRequest} → {@link LicenseTemplateDto} (NOT_FOUND when unknown). */
  templateLicense: 'repo.template.license',

  /** A repository's branch protection rules (repo admin): {@link RepoScopedRequest} → `BranchProtectionDto[]`. */
  branchProtectionList: 'repo.branch-protection.list',
  /** One rule by name (repo admin): {@link BranchProtectionRequest} → `BranchProtectionDto`. */
  branchProtectionGet: 'repo.branch-protection.get',
  /** Add a rule (repo admin): {@link CreateBranchProtectionRequest} → `BranchProtectionDto`. */
  branchProtectionCreate: 'repo.branch-protection.create',
  /** Change a rule's set fields (repo admin): {@link EditBranchProtectionRequest} → `BranchProtectionDto`. */
  branchProtectionEdit: 'repo.branch-protection.edit',
  /** Remove a rule (repo admin): {@link BranchProtectionRequest} → `null`. */
  branchProtectionDelete: 'repo.branch-protection.delete',
} as const;
