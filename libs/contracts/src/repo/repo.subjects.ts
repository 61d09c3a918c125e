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
  /** Edit a repository (repo admin): {@link EditRepositoryRequest} → `RepositoryDto`. */
  repositoryEdit: 'repo.repository.edit',
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
  /** Get one commit by ref or sha: {@link GetCommitRequest} → `CommitDto`. */
  commitGet: 'repo.commit.get',
  /**
   * One commit's unified diff against its first parent (the web UI's commit page): {@link GetCommitDiffRequest} →
   * {@link CommitDiffReply} (no patch, `tooLarge`, past the request's byte cap).
   */
  commitDiff: 'repo.commit.diff',
  /** List branches: {@link ListBranchesRequest} → `Paginated<BranchDto>`. */
  branchList: 'repo.branch.list',
  /** Branch and tag names (the web UI's ref switcher): {@link ListRefNamesRequest} → {@link RefNamesReply}. */
  refNames: 'repo.ref.names',
  /** The instance signing key's public half: {@link GetSigningKeyRequest} → {@link SigningKeyReply}. */
  signingKeyGet: 'repo.signing-key.get',
} as const;
