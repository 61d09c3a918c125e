import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  CreateTagBody, DomainError, GitDataSubjects, GitTreeQuery, ListQuery, parseGiteaBool,
  type AnnotatedTagDto, type GitBlobResponseDto, type GitTreeResponseDto, type ReferenceDto, type TagDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../config/gateway-settings.js';
import { sendPage } from '../../http/pagination.js';
import { InternalRawClient } from './internal-raw.client.js';

/**
 * Tags and git data (Gitea's `routers/api/v1/repo` `tag.go`, `git_ref.go`, `tree.go`, `blob.go`): one repo-service
 * call per route; blob content too large for a bus message is read from repo-service's internal HTTP endpoint.
 */
@Controller('repos/:owner/:repo')
@ScopeCategoryOf('repository')
export class GitDataController {
  private readonly internalRaw: InternalRawClient;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {
    this.internalRaw = new InternalRawClient(common);
  }

  @Get('tags')
  @RepoAccess(GitDataSubjects.tagList)
  async listTags(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TagDto[]> {
    const page = await this.rpc.send(GitDataSubjects.tagList, { ...ctx, query });
    return sendPage(req, reply, page, query, this.common.rootUrl);
  }

  @Get('tags/*')
  @RepoAccess(GitDataSubjects.tagGet)
  getTag(@CurrentRepo() ctx: RepoContext, @Param('*') tag: string): Promise<TagDto> {
    return this.rpc.send(GitDataSubjects.tagGet, { ...ctx, tag: tag ?? '' });
  }

  /** Gitea answers 201 (its description says 200). */
  @Post('tags')
  @RepoAccess(GitDataSubjects.tagCreate)
  @HttpCode(201)
  createTag(@CurrentRepo() ctx: RepoContext, @Body() body: CreateTagBody): Promise<TagDto> {
    return this.rpc.send(GitDataSubjects.tagCreate, { ...ctx, body });
  }

  @Delete('tags/*')
  @RepoAccess(GitDataSubjects.tagDelete)
  @HttpCode(204)
  async deleteTag(@CurrentRepo() ctx: RepoContext, @Param('*') tag: string): Promise<void> {
    await this.rpc.send(GitDataSubjects.tagDelete, { ...ctx, tag: tag ?? '' });
  }

  @Get('git/refs')
  @RepoAccess(GitDataSubjects.refList)
  allRefs(@CurrentRepo() ctx: RepoContext): Promise<ReferenceDto[] | ReferenceDto> {
    return this.refs(ctx, '');
  }

  /** A filter that names exactly one ref answers that ref alone (an object), as Gitea. */
  @Get('git/refs/*')
  @RepoAccess(GitDataSubjects.refList)
  refsUnder(@CurrentRepo() ctx: RepoContext, @Param('*') filter: string): Promise<ReferenceDto[] | ReferenceDto> {
    return this.refs(ctx, filter ?? '');
  }

  @Get('git/tags/:sha')
  @RepoAccess(GitDataSubjects.annotatedTag)
  annotatedTag(@CurrentRepo() ctx: RepoContext, @Param('sha') sha: string): Promise<AnnotatedTagDto> {
    return this.rpc.send(GitDataSubjects.annotatedTag, { ...ctx, sha });
  }

  @Get('git/trees/:sha')
  @RepoAccess(GitDataSubjects.tree)
  tree(@CurrentRepo() ctx: RepoContext, @Param('sha') sha: string, @Query() q: GitTreeQuery): Promise<GitTreeResponseDto> {
    const max = this.settings.defaultGitTreesPerPage;
    const perPage = !q.per_page || q.per_page <= 0 || q.per_page > max ? max : q.per_page;
    return this.rpc.send(GitDataSubjects.tree, {
      ...ctx, sha, recursive: parseGiteaBool(q.recursive, false), page: Math.max(1, q.page ?? 1), perPage,
    });
  }

  @Get('git/blobs/:sha')
  @RepoAccess(GitDataSubjects.blob)
  async blob(@CurrentRepo() ctx: RepoContext, @Param('sha') sha: string): Promise<GitBlobResponseDto> {
    const reply = await this.rpc.send(GitDataSubjects.blob, { ...ctx, sha, maxBlobSize: this.settings.defaultMaxBlobSize });
    if (!reply.deferred) return reply.blob;
    const bytes = await this.internalRaw.readBlob(ctx.repo, reply.blob.sha, reply.blob.size);
    return { ...reply.blob, content: bytes.toString('base64'), encoding: 'base64' };
  }

  private async refs(ctx: RepoContext, filter: string): Promise<ReferenceDto[] | ReferenceDto> {
    const refs = await this.rpc.send(GitDataSubjects.refList, { ...ctx, filter });
    if (refs.length === 0) throw DomainError.notFound();
    return refs.length === 1 && filter && refs[0].ref === `refs/${filter}` ? refs[0] : refs;
  }
}
