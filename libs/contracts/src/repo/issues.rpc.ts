import type { Paginated } from '../common/pagination.js';
import type { UserDto } from '../identity/user.dto.js';
import type { RepoScopedRequest } from './repo-access.dto.js';
import type {
  CommentDto, CreateIssueCommentRequest, CreateIssueRequest, EditIssueCommentRequest, EditIssueRequest,
  IssueCommentIdRequest, IssueDto, IssueIndexRequest, IssueTimelineRequest, ListIssuesRequest, LockIssueRequest, TimelineCommentDto,
} from './issues.dto.js';
import type { RpcPair } from '../rpc-contract.js';
import type { IssueSubjects } from './issues.subjects.js';

export interface IssueRpc {
  [IssueSubjects.create]: RpcPair<CreateIssueRequest, IssueDto>;
  [IssueSubjects.assignees]: RpcPair<RepoScopedRequest, UserDto[]>;
  [IssueSubjects.list]: RpcPair<ListIssuesRequest, Paginated<IssueDto>>;
  [IssueSubjects.get]: RpcPair<IssueIndexRequest, IssueDto>;
  [IssueSubjects.edit]: RpcPair<EditIssueRequest, IssueDto>;
  [IssueSubjects.lock]: RpcPair<LockIssueRequest, null>;
  [IssueSubjects.unlock]: RpcPair<IssueIndexRequest, null>;
  [IssueSubjects.timeline]: RpcPair<IssueTimelineRequest, Paginated<TimelineCommentDto>>;
  [IssueSubjects.commentList]: RpcPair<IssueIndexRequest, Paginated<CommentDto>>;
  [IssueSubjects.commentCreate]: RpcPair<CreateIssueCommentRequest, CommentDto>;
  [IssueSubjects.commentGet]: RpcPair<IssueCommentIdRequest, CommentDto>;
  [IssueSubjects.commentEdit]: RpcPair<EditIssueCommentRequest, CommentDto>;
  [IssueSubjects.commentDelete]: RpcPair<IssueCommentIdRequest, null>;
}
