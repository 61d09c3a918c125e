import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateIssueCommentRequest, CreateIssueRequest, EditIssueCommentRequest, EditIssueRequest, IssueCommentIdRequest,
  IssueIndexRequest, IssueSubjects, ListIssuesRequest, LockIssueRequest,
  type CommentDto, type IssueDto, type Paginated, type TimelineCommentDto,
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

  @MessagePattern(IssueSubjects.create)
  create(@Payload() req: CreateIssueRequest): Promise<IssueDto> {
    return this.issues.create(req);
  }

  @MessagePattern(IssueSubjects.list)
  list(@Payload() req: ListIssuesRequest): Promise<Paginated<IssueDto>> {
    return this.issues.list(req);
  }

  @MessagePattern(IssueSubjects.get)
  get(@Payload() req: IssueIndexRequest): Promise<IssueDto> {
    return this.issues.get(req);
  }

  @MessagePattern(IssueSubjects.edit)
  edit(@Payload() req: EditIssueRequest): Promise<IssueDto> {
    return this.issues.edit(req);
  }

  @MessagePattern(IssueSubjects.lock)
  async lock(@Payload() req: LockIssueRequest): Promise<null> {
    await this.issues.setLock(req, true);
    return null;
  }

  @MessagePattern(IssueSubjects.unlock)
  async unlock(@Payload() req: IssueIndexRequest): Promise<null> {
    await this.issues.setLock(req, false);
    return null;
  }

  @MessagePattern(IssueSubjects.timeline)
  timeline(@Payload() req: IssueIndexRequest): Promise<Paginated<TimelineCommentDto>> {
    return this.issues.timeline(req);
  }

  @MessagePattern(IssueSubjects.commentList)
  comments(@Payload() req: IssueIndexRequest): Promise<Paginated<CommentDto>> {
    return this.commentsService.list(req);
  }

  @MessagePattern(IssueSubjects.commentCreate)
  comment(@Payload() req: CreateIssueCommentRequest): Promise<CommentDto> {
    return this.commentsService.create(req);
  }

  @MessagePattern(IssueSubjects.commentGet)
  getComment(@Payload() req: IssueCommentIdRequest): Promise<CommentDto> {
    return this.commentsService.get(req);
  }

  @MessagePattern(IssueSubjects.commentEdit)
  editComment(@Payload() req: EditIssueCommentRequest): Promise<CommentDto> {
    return this.commentsService.edit(req);
  }

  @MessagePattern(IssueSubjects.commentDelete)
  async deleteComment(@Payload() req: IssueCommentIdRequest): Promise<null> {
    await this.commentsService.delete(req);
    return null;
  }
}
