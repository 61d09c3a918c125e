import type { Paginated } from '../common/pagination.js';
import type { CommitDto } from './commits.dto.js';
import type {
  ChangedFileDto, CheckTargetReply, CheckTargetRequest, CreatePullRequest, EditPullRequest,
  GetPullByBranchesRequest, GetPullRequest, ListPullsRequest, MergePullRequest, PullHeadReply, PullHeadRequest,
  PullIndexRequest, PullPageRequest, PullRequestDto, ReportMergeabilityReply, ReportMergeabilityRequest,
  UpdatePullRequest,
} from './pulls.dto.js';
import type { RpcPair } from '../rpc-contract.js';
import type { PullSubjects } from './pulls.subjects.js';

export interface PullRpc {
  [PullSubjects.create]: RpcPair<CreatePullRequest, PullRequestDto>;
  [PullSubjects.list]: RpcPair<ListPullsRequest, Paginated<PullRequestDto>>;
  [PullSubjects.get]: RpcPair<GetPullRequest, PullRequestDto>;
  [PullSubjects.getByBranches]: RpcPair<GetPullByBranchesRequest, PullRequestDto>;
  [PullSubjects.headCommit]: RpcPair<PullHeadRequest, PullHeadReply>;
  [PullSubjects.edit]: RpcPair<EditPullRequest, PullRequestDto>;
  [PullSubjects.commits]: RpcPair<PullPageRequest, Paginated<CommitDto>>;
  [PullSubjects.files]: RpcPair<PullPageRequest, Paginated<ChangedFileDto>>;
  [PullSubjects.isMerged]: RpcPair<PullIndexRequest, boolean>;
  [PullSubjects.merge]: RpcPair<MergePullRequest, null>;
  [PullSubjects.update]: RpcPair<UpdatePullRequest, null>;
  [PullSubjects.checkTarget]: RpcPair<CheckTargetRequest, CheckTargetReply | null>;
  [PullSubjects.reportMergeability]: RpcPair<ReportMergeabilityRequest, ReportMergeabilityReply>;
}
