import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateIssueCommentRequest, CreateIssueRequest, EditIssueCommentRequest, EditIssueRequest, IssueCommentIdRequest,
  IssueIndexRequest, IssueSubjects, IssueTimelineRequest, ListIssuesRequest, LockIssueRequest, RepoScopedRequest,
  type CommentDto, type IssueDto, type Paginated, type TimelineCommentDto, type UserDto,
} from '@cairn/contracts';
import { CommentsService } from './comments.service.js';
import { IssuesService } from './issues.service.js';

/** Issue and comment messages (every one a `RepoScopedRequest` resolved by the gateway). */
@Controller()
export class IssuesHandler {
  constructor(
    private readonly issues: IssuesService,
    private readonly commentsService: CommentsService,
  ) {}

  @RpcHandler(IssueSubjects.create)
  create(@Payload() req: CreateIssueRequest): Promise<IssueDto> {
    return this.issues.create(req);
  }

  @RpcHandler(IssueSubjects.assignees)
  assignees(@Payload() req: RepoScopedRequest): Promise<UserDto[]> {
    return this.issues.assignable(req);
  }

  @RpcHandler(IssueSubjects.list)
  list(@Payload() req: ListIssuesRequest): Promise<Paginated<IssueDto>> {
    return this.issues.list(req);
  }

  @RpcHandler(IssueSubjects.get)
  get(@Payload() req: IssueIndexRequest): Promise<IssueDto> {
    return this.issues.get(req);
  }

  @RpcHandler(IssueSubjects.edit)
  edit(@Payload() req: EditIssueRequest): Promise<IssueDto> {
    return this.issues.edit(req);
  }

  @RpcHandler(IssueSubjects.lock)
  async lock(@Payload() req: LockIssueRequest): Promise<null> {
    await this.issues.setLock(req, true);
    return null;
  }

  @RpcHandler(IssueSubjects.unlock)
  async unlock(@Payload() req: IssueIndexRequest): Promise<null> {
    await this.issues.setLock(req, false);
    return null;
  }

  @RpcHandler(IssueSubjects.timeline)
  timeline(@Payload() req: IssueTimelineRequest): Promise<Paginated<TimelineCommentDto>> {
    return this.issues.timeline(req);
  }

  @RpcHandler(IssueSubjects.commentList)
  comments(@Payload() req: IssueIndexRequest): Promise<Paginated<CommentDto>> {
    return this.commentsService.list(req);
  }

  @RpcHandler(IssueSubjects.commentCreate)
  comment(@Payload() req: CreateIssueCommentRequest): Promise<CommentDto> {
    return this.commentsService.create(req);
  }

  @RpcHandler(IssueSubjects.commentGet)
  getComment(@Payload() req: IssueCommentIdRequest): Promise<CommentDto> {
    return this.commentsService.get(req);
  }

  @RpcHandler(IssueSubjects.commentEdit)
  editComment(@Payload() req: EditIssueCommentRequest): Promise<CommentDto> {
    return this.commentsService.edit(req);
  }

  @RpcHandler(IssueSubjects.commentDelete)
  async deleteComment(@Payload() req: IssueCommentIdRequest): Promise<null> {
    await this.commentsService.delete(req);
    return null;
  }
}
