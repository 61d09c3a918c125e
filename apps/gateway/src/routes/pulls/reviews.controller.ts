import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreatePullReviewBody, DismissPullReviewBody, ListQuery, PullReviewRequestBody, ReviewSubjects, SubmitPullReviewBody,
  type Paginated, type PullReviewCommentDto, type PullReviewDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';
import { PositiveIntPipe } from '../../http/params.js';

/**
 * `/repos/{owner}/{repo}/pulls/{index}/reviews…` and `…/requested_reviewers` (Gitea's
 * `routers/api/v1/repo/pull_review.go`, token scope `repository`). Readers may review, as in Gitea; the rules on who
 * may approve, dismiss or request are repo-service's.
 */
@Controller('repos/:owner/:repo/pulls/:index')
@ScopeCategoryOf('repository')
export class ReviewsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('reviews')
  @RepoAccess(ReviewSubjects.list)
  @Paged()
  list(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Query() query: ListQuery,
  ): Promise<Paginated<PullReviewDto>> {
    return this.rpc.send(ReviewSubjects.list, { ...ctx, index, query });
  }

  /** Gitea answers a created review with 200. */
  @Post('reviews')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.create)
  @HttpCode(200)
  create(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: CreatePullReviewBody,
  ): Promise<PullReviewDto> {
    return this.rpc.send(ReviewSubjects.create, { ...ctx, index, body: body ?? {} });
  }

  @Get('reviews/:id')
  @RepoAccess(ReviewSubjects.get)
  get(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<PullReviewDto> {
    return this.rpc.send(ReviewSubjects.get, { ...ctx, index, id });
  }

  /** Submits a pending review (200). */
  @Post('reviews/:id')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.submit)
  @HttpCode(200)
  submit(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
    @Body() body: SubmitPullReviewBody,
  ): Promise<PullReviewDto> {
    return this.rpc.send(ReviewSubjects.submit, { ...ctx, index, id, body: body ?? {} });
  }

  @Delete('reviews/:id')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.delete)
  @HttpCode(204)
  async delete(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<void> {
    await this.rpc.send(ReviewSubjects.delete, { ...ctx, index, id });
  }

  @Get('reviews/:id/comments')
  @RepoAccess(ReviewSubjects.comments)
  comments(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<PullReviewCommentDto[]> {
    return this.rpc.send(ReviewSubjects.comments, { ...ctx, index, id });
  }

  /** Repository admins only (checked by repo-service, after the review is found: Gitea's order). */
  @Post('reviews/:id/dismissals')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.dismiss)
  @HttpCode(200)
  dismiss(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
    @Body() body: DismissPullReviewBody,
  ): Promise<PullReviewDto> {
    return this.rpc.send(ReviewSubjects.dismiss, { ...ctx, index, id, body: body ?? {} });
  }

  @Post('reviews/:id/undismissals')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.undismiss)
  @HttpCode(200)
  undismiss(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Param('id', PositiveIntPipe) id: number,
  ): Promise<PullReviewDto> {
    return this.rpc.send(ReviewSubjects.undismiss, { ...ctx, index, id });
  }

  /** 201 with the new review requests. */
  @Post('requested_reviewers')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.requestAdd)
  @HttpCode(201)
  requestReviewers(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: PullReviewRequestBody,
  ): Promise<PullReviewDto[]> {
    return this.rpc.send(ReviewSubjects.requestAdd, { ...ctx, index, body: body ?? {} });
  }

  @Delete('requested_reviewers')
  @SignInRequired()
  @RepoAccess(ReviewSubjects.requestRemove)
  @HttpCode(204)
  async removeReviewRequests(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: PullReviewRequestBody,
  ): Promise<void> {
    await this.rpc.send(ReviewSubjects.requestRemove, { ...ctx, index, body: body ?? {} });
  }
}
