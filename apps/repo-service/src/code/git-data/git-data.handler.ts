import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateTagRequest, GetBlobRequest, GetTreeRequest, GitDataSubjects, GitObjectRequest, ListGitRefsRequest, ListTagsRequest,
  TagNameRequest,
  type AnnotatedTagDto, type GetBlobReply, type GitTreeResponseDto, type Paginated, type ReferenceDto, type TagDto,
} from '@cairn/contracts';
import { GitDataService } from './git-data.service.js';
import { TagsService } from './tags.service.js';

/** Tags and git data (refs, trees, blobs, tag objects). */
@Controller()
export class GitDataHandler {
  constructor(
    private readonly tags: TagsService,
    private readonly data: GitDataService,
  ) {}

  @RpcHandler(GitDataSubjects.tagList)
  listTags(@Payload() req: ListTagsRequest): Promise<Paginated<TagDto>> {
    return this.tags.list(req);
  }

  @RpcHandler(GitDataSubjects.tagGet)
  getTag(@Payload() req: TagNameRequest): Promise<TagDto> {
    return this.tags.get(req);
  }

  @RpcHandler(GitDataSubjects.tagCreate)
  createTag(@Payload() req: CreateTagRequest): Promise<TagDto> {
    return this.tags.create(req);
  }

  @RpcHandler(GitDataSubjects.tagDelete)
  deleteTag(@Payload() req: TagNameRequest): Promise<null> {
    return this.tags.delete(req);
  }

  @RpcHandler(GitDataSubjects.refList)
  refs(@Payload() req: ListGitRefsRequest): Promise<ReferenceDto[]> {
    return this.data.refs(req);
  }

  @RpcHandler(GitDataSubjects.annotatedTag)
  annotatedTag(@Payload() req: GitObjectRequest): Promise<AnnotatedTagDto> {
    return this.data.annotatedTag(req);
  }

  @RpcHandler(GitDataSubjects.tree)
  tree(@Payload() req: GetTreeRequest): Promise<GitTreeResponseDto> {
    return this.data.tree(req);
  }

  @RpcHandler(GitDataSubjects.blob)
  blob(@Payload() req: GetBlobRequest): Promise<GetBlobReply> {
    return this.data.blob(req);
  }
}
