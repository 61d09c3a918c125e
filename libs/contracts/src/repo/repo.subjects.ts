/** Served by repo-service (queue group `repo-service`). */
export const RepoSubjects = {
  /** Health check. */
  health: 'repo.health.check',
  /** `{owner}/{repo}` and the actor's access; one the actor cannot see is NOT_FOUND, never PERMISSION_DENIED. */
  accessResolve: 'repo.access.resolve',
  /** Get one branch, with its head commit. */
  branchGet: 'repo.branch.get',

  /** Create a repository. */
  repositoryCreate: 'repo.repository.create',
  /** Get a repository (permissions are the caller's). */
  repositoryGet: 'repo.repository.get',
  /** A repository's web page header: no owner lookup, so it costs one row read. */
  repositorySummary: 'repo.repository.summary',
  /** Get a repository by id; one the actor cannot see is NOT_FOUND. */
  repositoryGetById: 'repo.repository.get-by-id',
  /** Fork into the actor or one of their organizations (ALREADY_EXISTS when the name is taken or a fork exists). */
  repositoryFork: 'repo.repository.fork',
  /** A page of a repository's forks the actor may see. */
  repositoryForks: 'repo.repository.forks',
  /** Edit a repository (repo admin). */
  repositoryEdit: 'repo.repository.edit',
  /** Move a repository to another owner (repo owner who may create repositories there, or a site admin). */
  repositoryTransfer: 'repo.repository.transfer',
  /** Delete a repository and its storage (repo owner or site admin). */
  repositoryDelete: 'repo.repository.delete',
  /** List an owner's, or the caller's, repositories. */
  repositoryList: 'repo.repository.list',
  /** Search repositories visible to the caller. */
  repositorySearch: 'repo.repository.search',
  /** Count an owner's repositories (deleting an owner is refused while it has any). */
  repositoryOwnedCount: 'repo.repository.owned-count',
  /** The repositories among some ids the actor may see, with their permissions (packages-service's linked repositories). */
  repositoryVisible: 'repo.repository.visible',

  /** A team's repositories (org members and site admins). */
  teamRepoList: 'repo.team-repo.list',
  /** One repository of a team, NOT_FOUND when not given to it. */
  teamRepoGet: 'repo.team-repo.get',
  /** Give a team a repository (repo admins). */
  teamRepoAdd: 'repo.team-repo.add',
  /** Take a repository from a team (repo admins). */
  teamRepoRemove: 'repo.team-repo.remove',

  /** The actor's notification threads, newest first, of one repository when `repo` is set. */
  notificationList: 'repo.notification.list',
  /** Change the status of the actor's threads; replies the changed ones. */
  notificationRead: 'repo.notification.read',
  /** The actor's unread threads. */
  notificationCount: 'repo.notification.count',
  /** One thread (its user or a site admin). */
  notificationThreadGet: 'repo.notification.thread-get',
  /** Change one thread's status (default `read`). */
  notificationThreadRead: 'repo.notification.thread-read',

  /** List a repository's collaborators. */
  collaboratorList: 'repo.collaborator.list',
  /** Is a user a collaborator. */
  collaboratorCheck: 'repo.collaborator.check',
  /** Add or update a collaborator (repo admin). */
  collaboratorAdd: 'repo.collaborator.add',
  /** Remove a collaborator (repo admin). */
  collaboratorRemove: 'repo.collaborator.remove',
  /** A user's effective permission. */
  collaboratorPermission: 'repo.collaborator.permission',

  /** A repository's deploy keys (repo admin). */
  deployKeyList: 'repo.deploy-key.list',
  /** Add a deploy key (repo admin). */
  deployKeyCreate: 'repo.deploy-key.create',
  /** One deploy key of the repository (repo admin). */
  deployKeyGet: 'repo.deploy-key.get',
  /** Remove a deploy key (repo admin). */
  deployKeyDelete: 'repo.deploy-key.delete',
  /** Is this key (fingerprint) some repository's deploy key. */
  deployKeyFingerprintUsed: 'repo.deploy-key.fingerprint-used',

  /** Star or watch a repository, or stop. */
  followSet: 'repo.follow.set',
  /** Does the actor star/watch the repository. */
  followCheck: 'repo.follow.check',
  /** A repository's stargazers / subscribers. */
  followFollowers: 'repo.follow.followers',
  /** What a user stars / watches, as the actor may see it. */
  followFollowed: 'repo.follow.followed',

  /** Contents of a path at a ref (file with content, or dir). */
  contentsGet: 'repo.contents.get',
  /** Batch file contents (Gitea `/file-contents`). */
  fileContents: 'repo.file-contents.get',
  /** Raw bytes of a file (inline only up to a cap). */
  rawGet: 'repo.raw.get',
  /** Create, update, rename or delete files in one commit; recorded like a push. */
  contentsChange: 'repo.contents.change',
  /** List commits (sha, path, not, since/until, paging). */
  commitList: 'repo.commit.list',
  /** Compare `base...head` or `base..head`: head's commits missing from base, at most `[git] COMMITS_RANGE_SIZE`. */
  compare: 'repo.compare',
  /** Get one commit by ref or sha. */
  commitGet: 'repo.commit.get',
  /** One commit's diff against its first parent or its merge base with `base`; `tooLarge` past the request's byte cap. */
  commitDiff: 'repo.commit.diff',
  /** List branches. */
  branchList: 'repo.branch.list',
  /** Create a branch from a branch, tag or commit (write access). */
  branchCreate: 'repo.branch.create',
  /** Delete a branch (write access; not the default branch); recorded like a push that deletes it. */
  branchDelete: 'repo.branch.delete',
  /** Rename a branch (the default one and protected names need repo admin); rules and open pull requests follow. */
  branchRename: 'repo.branch.rename',
  /** A page of a repository's topics. */
  topicList: 'repo.topic.list',
  /** Replace a repository's topics (repo admin). */
  topicReplace: 'repo.topic.replace',
  /** Add one topic (repo admin). */
  topicAdd: 'repo.topic.add',
  /** Remove one topic (repo admin; NOT_FOUND when absent). */
  topicDelete: 'repo.topic.delete',
  /** Who last changed each line of a file (`git blame --porcelain`). */
  blame: 'repo.blame',
  /** Branch and tag names (the web UI's ref switcher). */
  refNames: 'repo.ref.names',
  /** The instance signing key's public half. */
  signingKeyGet: 'repo.signing-key.get',
  /** The `.gitignore` and licence templates `auto_init` can add. */
  templateList: 'repo.template.list',
  /** One `.gitignore` template (NOT_FOUND when unknown). */
  templateGitignore: 'repo.template.gitignore',
  /** One licence (NOT_FOUND when unknown). */
  templateLicense: 'repo.template.license',

  /** A repository's branch protection rules (repo admin). */
  branchProtectionList: 'repo.branch-protection.list',
  /** One rule by name (repo admin). */
  branchProtectionGet: 'repo.branch-protection.get',
  /** Add a rule (repo admin). */
  branchProtectionCreate: 'repo.branch-protection.create',
  /** Change a rule's set fields (repo admin). */
  branchProtectionEdit: 'repo.branch-protection.edit',
  /** Remove a rule (repo admin). */
  branchProtectionDelete: 'repo.branch-protection.delete',
} as const;
