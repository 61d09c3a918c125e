import type { Paginated } from '../common/pagination.js';
import type { RpcPair } from '../rpc-contract.js';
import type {
  AnnotatedTagDto, CreateTagRequest, GetBlobReply, GetBlobRequest, GetTreeRequest, GitObjectRequest,
  GitTreeResponseDto, ListGitRefsRequest, ListTagsRequest, ReferenceDto, TagDto, TagNameRequest,
} from './git-data.dto.js';
import type { GitDataSubjects } from './git-data.subjects.js';

export interface GitDataRpc {
  [GitDataSubjects.tagList]: RpcPair<ListTagsRequest, Paginated<TagDto>>;
  [GitDataSubjects.tagGet]: RpcPair<TagNameRequest, TagDto>;
  [GitDataSubjects.tagCreate]: RpcPair<CreateTagRequest, TagDto>;
  [GitDataSubjects.tagDelete]: RpcPair<TagNameRequest, null>;
  [GitDataSubjects.refList]: RpcPair<ListGitRefsRequest, ReferenceDto[]>;
  [GitDataSubjects.annotatedTag]: RpcPair<GitObjectRequest, AnnotatedTagDto>;
  [GitDataSubjects.tree]: RpcPair<GetTreeRequest, GitTreeResponseDto>;
  [GitDataSubjects.blob]: RpcPair<GetBlobRequest, GetBlobReply>;
}
