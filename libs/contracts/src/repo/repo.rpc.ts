import type { Paginated } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type {
  BranchProtectionDto, BranchProtectionRequest, CreateBranchProtectionRequest, EditBranchProtectionRequest,
} from './branch-protection.dto.js';
import type {
  BranchDto, CreateBranchRequest, DeleteBranchRequest, GetBranchRequest, ListBranchesRequest, ListRefNamesRequest,
  RefNamesReply, RenameBranchRequest,
} from './branches.dto.js';
import type { ListTopicsReply, ListTopicsRequest, ReplaceTopicsRequest, TopicRequest } from './topics.dto.js';
import type {
  AddCollaboratorRequest, CollaboratorRequest, ListCollaboratorsRequest, RepoCollaboratorPermissionDto,
} from './collaborator.dto.js';
import type {
  CommitDiffReply, CommitDto, CommitListReply, CompareDto, CompareRequest, GetCommitDiffRequest, GetCommitRequest, ListCommitsRequest,
} from './commits.dto.js';
import type {
  BlameReply, BlameRequest, GetContentsReply, GetContentsRequest, GetFileContentsReply, GetFileContentsRequest, GetRawReply, GetRawRequest,
} from './contents.dto.js';
import type {
  CreateDeployKeyRequest, DeployKeyDto, DeployKeyFingerprintRequest, DeployKeyIdRequest, ListDeployKeysRequest,
} from './deploy-key.dto.js';
import type {
  CheckFollowRequest, FollowStateReply, ListFollowedRequest, ListFollowersRequest, SetFollowRequest,
} from './follow.dto.js';
import type { ChangeFilesReply, ChangeFilesRequest } from './file-changes.dto.js';
import type { RepoAccessReply, RepoAccessRequest, RepoScopedRequest } from './repo-access.dto.js';
import type {
  CreateRepositoryRequest, EditRepositoryRequest, ListRepositoriesRequest, OwnedRepositoriesReply, OwnedRepositoriesRequest,
  ForkRepositoryRequest, GetRepositoryByIdRequest, ListForksRequest, RepositoryDto, RepositorySummaryDto,
  SearchRepositoriesRequest, TeamRepositoriesRequest, TeamRepositoryRequest, TransferRepositoryRequest, VisibleRepositoriesRequest,
} from './repository.dto.js';
import type {
  ListNotificationsRequest, NotificationCountDto, NotificationCountRequest, NotificationThreadDto, NotificationThreadRequest,
  ReadNotificationsRequest,
} from './notifications.dto.js';
import type { GetSigningKeyRequest, SigningKeyReply } from './signing-key.dto.js';
import type {
  GetTemplateRequest, GitignoreTemplateDto, LicenseTemplateDto, ListTemplatesRequest, TemplateCatalogueReply,
} from './templates.dto.js';
import type { RpcPair } from '../rpc-contract.js';
import type { RepoSubjects } from './repo.subjects.js';

export interface RepoRpc {
  [RepoSubjects.accessResolve]: RpcPair<RepoAccessRequest, RepoAccessReply>;
  [RepoSubjects.branchGet]: RpcPair<GetBranchRequest, BranchDto>;
  [RepoSubjects.repositoryCreate]: RpcPair<CreateRepositoryRequest, RepositoryDto>;
  [RepoSubjects.repositoryGet]: RpcPair<RepoScopedRequest, RepositoryDto>;
  [RepoSubjects.repositorySummary]: RpcPair<RepoScopedRequest, RepositorySummaryDto>;
  [RepoSubjects.repositoryGetById]: RpcPair<GetRepositoryByIdRequest, RepositoryDto>;
  [RepoSubjects.repositoryFork]: RpcPair<ForkRepositoryRequest, RepositoryDto>;
  [RepoSubjects.repositoryForks]: RpcPair<ListForksRequest, Paginated<RepositoryDto>>;
  [RepoSubjects.repositoryEdit]: RpcPair<EditRepositoryRequest, RepositoryDto>;
  [RepoSubjects.repositoryTransfer]: RpcPair<TransferRepositoryRequest, RepositoryDto>;
  [RepoSubjects.repositoryDelete]: RpcPair<RepoScopedRequest, null>;
  [RepoSubjects.repositoryList]: RpcPair<ListRepositoriesRequest, Paginated<RepositoryDto>>;
  [RepoSubjects.repositorySearch]: RpcPair<SearchRepositoriesRequest, Paginated<RepositoryDto>>;
  [RepoSubjects.repositoryOwnedCount]: RpcPair<OwnedRepositoriesRequest, OwnedRepositoriesReply>;
  [RepoSubjects.repositoryVisible]: RpcPair<VisibleRepositoriesRequest, RepositoryDto[]>;
  [RepoSubjects.teamRepoList]: RpcPair<TeamRepositoriesRequest, Paginated<RepositoryDto>>;
  [RepoSubjects.teamRepoGet]: RpcPair<TeamRepositoryRequest, RepositoryDto>;
  [RepoSubjects.teamRepoAdd]: RpcPair<TeamRepositoryRequest, null>;
  [RepoSubjects.teamRepoRemove]: RpcPair<TeamRepositoryRequest, null>;
  [RepoSubjects.notificationList]: RpcPair<ListNotificationsRequest, Paginated<NotificationThreadDto>>;
  [RepoSubjects.notificationRead]: RpcPair<ReadNotificationsRequest, NotificationThreadDto[]>;
  [RepoSubjects.notificationCount]: RpcPair<NotificationCountRequest, NotificationCountDto>;
  [RepoSubjects.notificationThreadGet]: RpcPair<NotificationThreadRequest, NotificationThreadDto>;
  [RepoSubjects.notificationThreadRead]: RpcPair<NotificationThreadRequest, NotificationThreadDto>;
  [RepoSubjects.collaboratorList]: RpcPair<ListCollaboratorsRequest, Paginated<UserDto>>;
  [RepoSubjects.collaboratorCheck]: RpcPair<CollaboratorRequest, boolean>;
  [RepoSubjects.collaboratorAdd]: RpcPair<AddCollaboratorRequest, null>;
  [RepoSubjects.collaboratorRemove]: RpcPair<CollaboratorRequest, null>;
  [RepoSubjects.collaboratorPermission]: RpcPair<CollaboratorRequest, RepoCollaboratorPermissionDto>;
  [RepoSubjects.deployKeyList]: RpcPair<ListDeployKeysRequest, Paginated<DeployKeyDto>>;
  [RepoSubjects.deployKeyCreate]: RpcPair<CreateDeployKeyRequest, DeployKeyDto>;
  [RepoSubjects.deployKeyGet]: RpcPair<DeployKeyIdRequest, DeployKeyDto>;
  [RepoSubjects.deployKeyDelete]: RpcPair<DeployKeyIdRequest, null>;
  [RepoSubjects.deployKeyFingerprintUsed]: RpcPair<DeployKeyFingerprintRequest, boolean>;
  [RepoSubjects.followSet]: RpcPair<SetFollowRequest, FollowStateReply>;
  [RepoSubjects.followCheck]: RpcPair<CheckFollowRequest, FollowStateReply>;
  [RepoSubjects.followFollowers]: RpcPair<ListFollowersRequest, Paginated<UserDto>>;
  [RepoSubjects.followFollowed]: RpcPair<ListFollowedRequest, Paginated<RepositoryDto>>;
  [RepoSubjects.contentsGet]: RpcPair<GetContentsRequest, GetContentsReply>;
  [RepoSubjects.fileContents]: RpcPair<GetFileContentsRequest, GetFileContentsReply>;
  [RepoSubjects.rawGet]: RpcPair<GetRawRequest, GetRawReply>;
  [RepoSubjects.contentsChange]: RpcPair<ChangeFilesRequest, ChangeFilesReply>;
  [RepoSubjects.commitList]: RpcPair<ListCommitsRequest, CommitListReply>;
  [RepoSubjects.commitGet]: RpcPair<GetCommitRequest, CommitDto>;
  [RepoSubjects.compare]: RpcPair<CompareRequest, CompareDto>;
  [RepoSubjects.commitDiff]: RpcPair<GetCommitDiffRequest, CommitDiffReply>;
  [RepoSubjects.blame]: RpcPair<BlameRequest, BlameReply>;
  [RepoSubjects.branchList]: RpcPair<ListBranchesRequest, Paginated<BranchDto>>;
  [RepoSubjects.branchCreate]: RpcPair<CreateBranchRequest, BranchDto>;
  [RepoSubjects.branchDelete]: RpcPair<DeleteBranchRequest, null>;
  [RepoSubjects.branchRename]: RpcPair<RenameBranchRequest, null>;
  [RepoSubjects.topicList]: RpcPair<ListTopicsRequest, ListTopicsReply>;
  [RepoSubjects.topicReplace]: RpcPair<ReplaceTopicsRequest, null>;
  [RepoSubjects.topicAdd]: RpcPair<TopicRequest, null>;
  [RepoSubjects.topicDelete]: RpcPair<TopicRequest, null>;
  [RepoSubjects.refNames]: RpcPair<ListRefNamesRequest, RefNamesReply>;
  [RepoSubjects.signingKeyGet]: RpcPair<GetSigningKeyRequest, SigningKeyReply>;
  [RepoSubjects.templateList]: RpcPair<ListTemplatesRequest, TemplateCatalogueReply>;
  [RepoSubjects.templateGitignore]: RpcPair<GetTemplateRequest, GitignoreTemplateDto>;
  [RepoSubjects.templateLicense]: RpcPair<GetTemplateRequest, LicenseTemplateDto>;
  [RepoSubjects.branchProtectionList]: RpcPair<RepoScopedRequest, BranchProtectionDto[]>;
  [RepoSubjects.branchProtectionGet]: RpcPair<BranchProtectionRequest, BranchProtectionDto>;
  [RepoSubjects.branchProtectionCreate]: RpcPair<CreateBranchProtectionRequest, BranchProtectionDto>;
  [RepoSubjects.branchProtectionEdit]: RpcPair<EditBranchProtectionRequest, BranchProtectionDto>;
  [RepoSubjects.branchProtectionDelete]: RpcPair<BranchProtectionRequest, null>;
}
