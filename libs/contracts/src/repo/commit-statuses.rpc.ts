import type { Paginated } from '../common/pagination.js';
import type { RpcPair } from '../rpc-contract.js';
import type {
  CombinedStatusReply, CommitStatusDto, CreateCommitStatusRequest, GetCombinedStatusRequest, ListCommitStatusesRequest,
} from './commit-statuses.dto.js';
import type { CommitStatusSubjects } from './commit-statuses.subjects.js';

export interface CommitStatusRpc {
  [CommitStatusSubjects.create]: RpcPair<CreateCommitStatusRequest, CommitStatusDto>;
  [CommitStatusSubjects.list]: RpcPair<ListCommitStatusesRequest, Paginated<CommitStatusDto>>;
  [CommitStatusSubjects.combined]: RpcPair<GetCombinedStatusRequest, CombinedStatusReply>;
}
