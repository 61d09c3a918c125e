import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  CreatePullBody, DomainError, EditPullBody, ListPullsQuery, ListQuery, MergePullBody, PullSubjects, UpdatePullQuery,
  type ChangedFileDto, type CommitDto, type Paginated, type PullRequestDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, MustNotBeArchived, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';
import { PositiveIntPipe } from '../../http/params.js';

/**
 * Merges and branch updates may take a while (git work, a pending mergeability check runs first). The HTTP
 * request waits this long; the work itself is not tied to the request and finishes regardless.
 */
const LONG_RPC_MS = 300_000;

/** `/repos/{owner}/{repo}/pulls…` (Gitea's `routers/api/v1/repo/pull.go`, token scope `repository`). */
@Controller('repos/:owner/:repo/pulls')
@ScopeCategoryOf('repository')
export class PullsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Listing never triggers mergeability checks. */
  @Get()
  @RepoAccess(PullSubjects.list)
  @Paged()
  list(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListPullsQuery,
  ): Promise<Paginated<PullRequestDto>> {
    return this.rpc.send(PullSubjects.list, { ...ctx, query });
  }

  @Post()
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(PullSubjects.create)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreatePullBody): Promise<PullRequestDto> {
    return this.rpc.send(PullSubjects.create, { ...ctx, body });
  }

  /** A view: a delayed check is queued at once (this answer may still say `checking`). */
  @Get(':index')
  @RepoAccess(PullSubjects.get)
  get(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number): Promise<PullRequestDto> {
    return this.rpc.send(PullSubjects.get, { ...ctx, index, view: true });
  }

  /** Gitea answers a pull-request edit with 201. */
  @Patch(':index')
  @SignInRequired()
  @RepoAccess(PullSubjects.edit)
  @HttpCode(201)
  edit(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: EditPullBody,
  ): Promise<PullRequestDto> {
    return this.rpc.send(PullSubjects.edit, { ...ctx, index, body: body ?? {} });
  }

  @Get(':index/commits')
  @RepoAccess(PullSubjects.commits)
  @Paged()
  commits(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Query() query: ListQuery,
  ): Promise<Paginated<CommitDto>> {
    return this.rpc.send(PullSubjects.commits, { ...ctx, index, query });
  }

  @Get(':index/files')
  @RepoAccess(PullSubjects.files)
  @Paged()
  files(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Query() query: ListQuery,
  ): Promise<Paginated<ChangedFileDto>> {
    return this.rpc.send(PullSubjects.files, { ...ctx, index, query });
  }

  /** 204 when merged, 404 otherwise (Gitea). */
  @Get(':index/merge')
  @RepoAccess(PullSubjects.isMerged)
  @HttpCode(204)
  async isMerged(@CurrentRepo() ctx: RepoContext, @Param('index', PositiveIntPipe) index: number): Promise<void> {
    if (!(await this.rpc.send(PullSubjects.isMerged, { ...ctx, index }))) {
      throw DomainError.notFound('pull request has not been merged');
    }
  }

  /** 200 with an empty body; 405 not mergeable (with the reason), 409 conflict or stale `head_commit_id`. */
  @Post(':index/merge')
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(PullSubjects.merge)
  @HttpCode(200)
  async merge(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Body() body: MergePullBody,
  ): Promise<void> {
    await this.rpc.send(PullSubjects.merge, { ...ctx, index, body }, { timeoutMs: LONG_RPC_MS });
  }

  /** 200; 409 on conflict. The update finishes even if this client disconnects. */
  @Post(':index/update')
  @SignInRequired()
  @MustNotBeArchived()
  @RepoAccess(PullSubjects.update)
  @HttpCode(200)
  async update(
    @CurrentRepo() ctx: RepoContext,
    @Param('index', PositiveIntPipe) index: number,
    @Query() query: UpdatePullQuery,
  ): Promise<void> {
    await this.rpc.send(PullSubjects.update, { ...ctx, index, style: query.style ?? 'merge' }, { timeoutMs: LONG_RPC_MS });
  }

  /** `GET …/pulls/{base}/{head}` (head may contain `/`): a view, like the GET by number. */
  @Get(':base/*')
  @RepoAccess(PullSubjects.getByBranches)
  getByBranches(
    @CurrentRepo() ctx: RepoContext,
    @Param('base') base: string,
    @Param('*') head: string,
  ): Promise<PullRequestDto> {
    return this.rpc.send(PullSubjects.getByBranches, { ...ctx, base, head });
  }
}
