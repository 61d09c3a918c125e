import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res, Inject } from '@nestjs/common';
import {
  CreateReleaseBody, EditReleaseBody, ListReleasesQuery, ReleaseSubjects, parseGiteaBool, type ReleaseDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { sendPage } from '../../http/pagination.js';

/** `?draft=` / `?pre-release=`: absent means no filter (Gitea's `FormOptionalBool`). */
function optionalBool(raw: string | undefined): boolean | undefined {
  return raw === undefined || raw === '' ? undefined : parseGiteaBool(raw);
}

/** Releases (Gitea's `routers/api/v1/repo/release.go` and `release_tags.go`): one repo-service call per route. */
@Controller('repos/:owner/:repo/releases')
@ScopeCategoryOf('repository')
export class ReleasesController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  @Get()
  @RepoAccess('read', 'releases')
  async list(
    @CurrentRepo() ctx: RepoContext,
    @Query() q: ListReleasesQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ReleaseDto[]> {
    const query = { page: q.page, limit: q.limit };
    const page = await this.rpc.send(ReleaseSubjects.list, {
      ...ctx, query, draft: optionalBool(q.draft), prerelease: optionalBool(q['pre-release']),
    });
    return sendPage(req, reply, page, query, this.common.rootUrl);
  }

  @Post()
  @RepoAccess('write', 'releases')
  @HttpCode(201)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateReleaseBody): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.create, { ...ctx, body });
  }

  @Get('latest')
  @RepoAccess('read', 'releases')
  latest(@CurrentRepo() ctx: RepoContext): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.latest, ctx);
  }

  @Get('tags/*')
  @RepoAccess('read', 'releases')
  getByTag(@CurrentRepo() ctx: RepoContext, @Param('*') tag: string): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.getByTag, { ...ctx, tag: tag ?? '' });
  }

  @Delete('tags/*')
  @RepoAccess('write', 'releases')
  @HttpCode(204)
  async deleteByTag(@CurrentRepo() ctx: RepoContext, @Param('*') tag: string): Promise<void> {
    await this.rpc.send(ReleaseSubjects.deleteByTag, { ...ctx, tag: tag ?? '' });
  }

  @Get(':id')
  @RepoAccess('read', 'releases')
  get(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.get, { ...ctx, id });
  }

  @Patch(':id')
  @RepoAccess('write', 'releases')
  edit(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number, @Body() body: EditReleaseBody): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.edit, { ...ctx, id, body });
  }

  @Delete(':id')
  @RepoAccess('write', 'releases')
  @HttpCode(204)
  async delete(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(ReleaseSubjects.delete, { ...ctx, id });
  }
}
