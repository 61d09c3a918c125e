import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  CreateIssueBody, CreateIssueCommentBody, EditIssueBody, EditIssueCommentBody, IssueSubjects, ListIssuesQuery, ListQuery,
  type CommentDto, type IssueDto, type Paginated, type TimelineCommentDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';
import { CurrentRepo, MustNotBeArchived, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';
import { PositiveIntPipe } from '../../http/params.js';

/**
 * `/repos/{owner}/{repo}/issues…` (Gitea's `routers/api/v1/repo/issue*.go`, token scope `issue`): issues, comments,
 * the timeline, and GitHub-compatible lock/unlock (Octokit's `issues.lock`/`issues.unlock`).
 */
@Controller('repos/:owner/:repo/issues')
@ScopeCategoryOf('issue')
export class IssuesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RepoAccess(IssueSubjects.list)
  @Paged()
  list(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListIssuesQuery,
  ): Promise<Paginated<IssueDto>> {
    return this.rpc.send(IssueSubjects.list, { ...ctx, query });
  }

  @Post()
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(IssueSubjects.create)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateIssueBody): Promise<IssueDto> {
    return this.rpc.send(IssueSubjects.create, { ...ctx, body });
  }

  @Get('comments/:id')
  @RepoAccess(IssueSubjects.commentGet)
  getComment(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) commentId: number): Promise<CommentDto> {
    return this.rpc.send(IssueSubjects.commentGet, { ...ctx, commentId });
  }

  // Gitea's deprecated `…/issues/{index}/comments/{id}` forms of edit and delete ignore the index, as Gitea does.
  @Patch(['comments/:id', ':index/comments/:id'])
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(IssueSubjects.commentEdit)
  editComment(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) commentId: number,
    @Body() body: EditIssueCommentBody,
  ): Promise<CommentDto> {
    return this.rpc.send(IssueSubjects.commentEdit, { ...ctx, commentId, body });
  }

  @Delete(['comments/:id', ':index/comments/:id'])
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(IssueSubjects.commentDelete)
  @HttpCode(204)
  async deleteComment(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) commentId: number): Promise<void> {
    await this.rpc.send(IssueSubjects.commentDelete, { ...ctx, commentId });
  }

  @Get(':index')
  @RepoAccess(IssueSubjects.get)
  get(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number): Promise<IssueDto> {
    return this.rpc.send(IssueSubjects.get, { ...ctx, index });
  }

  /** Gitea answers an issue edit with 201. */
  @Patch(':index')
  @SignInRequired()
  @RepoAccess(IssueSubjects.edit)
  @HttpCode(201)
  edit(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: EditIssueBody,
  ): Promise<IssueDto> {
    return this.rpc.send(IssueSubjects.edit, { ...ctx, index, body: body ?? {} });
  }

  /**
   * GitHub's lock: the body may be absent, empty or `null` (Octokit sends none); the reason is checked by
   * repo-service (422 with the accepted reasons). Write access required.
   */
  @Put(':index/lock')
  @SignInRequired()
  @RepoAccess(IssueSubjects.lock)
  @HttpCode(204)
  async lock(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: unknown,
  ): Promise<void> {
    const lockBody = body && typeof body === 'object' && !Array.isArray(body) ? body : null;
    if (body !== undefined && body !== null && lockBody === null) {
      // A JSON body that is not an object (a string, a number, an array) cannot carry a reason.
      await this.rpc.send(IssueSubjects.lock, { ...ctx, index, body: { lock_reason: body } });
      return;
    }
    await this.rpc.send(IssueSubjects.lock, { ...ctx, index, body: lockBody });
  }

  @Delete(':index/lock')
  @SignInRequired()
  @RepoAccess(IssueSubjects.unlock)
  @HttpCode(204)
  async unlock(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number): Promise<void> {
    await this.rpc.send(IssueSubjects.unlock, { ...ctx, index });
  }

  @Get(':index/comments')
  @RepoAccess(IssueSubjects.commentList)
  async comments(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommentDto[]> {
    const page = await this.rpc.send(IssueSubjects.commentList, { ...ctx, index });
    reply.header('x-total-count', String(page.total));
    return page.items;
  }

  @Post(':index/comments')
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(IssueSubjects.commentCreate)
  comment(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: CreateIssueCommentBody,
  ): Promise<CommentDto> {
    return this.rpc.send(IssueSubjects.commentCreate, { ...ctx, index, body });
  }

  /** Gitea paginates the timeline (`page`, `limit`); without either, Cairn answers all of it. */
  @Get(':index/timeline')
  @RepoAccess(IssueSubjects.timeline)
  @Paged()
  timeline(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Query() query: ListQuery,
  ): Promise<Paginated<TimelineCommentDto>> {
    return this.rpc.send(IssueSubjects.timeline, { ...ctx, index, query });
  }
}
