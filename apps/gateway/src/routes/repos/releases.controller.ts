import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res, Inject } from '@nestjs/common';
import {
  CreateReleaseBody, DomainError, EditReleaseAssetBody, ErrorCode, EditReleaseBody, ListReleasesQuery, ReleaseSubjects, RepoOperations,
  parseGiteaBool,
  type AttachmentDto, type ReleaseDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { sendPage } from '../../http/pagination.js';
import { AttachmentUploader } from './attachment-upload.js';

/** `?draft=` / `?pre-release=`: absent means no filter (Gitea's `FormOptionalBool`). */
function optionalBool(raw: string | undefined): boolean | undefined {
  return raw === undefined || raw === '' ? undefined : parseGiteaBool(raw);
}

/**
 * Releases and their attachments (Gitea's `routers/api/v1/repo/release.go`, `release_tags.go` and
 * `release_attachment.go`): one repo-service call per route; an upload's bytes stream to repo-service's internal HTTP.
 */
@Controller('repos/:owner/:repo/releases')
@ScopeCategoryOf('repository')
export class ReleasesController {
  private readonly uploader: AttachmentUploader;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {
    this.uploader = new AttachmentUploader(common);
  }

  @Get()
  @RepoAccess(ReleaseSubjects.list)
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
  @RepoAccess(ReleaseSubjects.create)
  @HttpCode(201)
  create(@CurrentRepo() ctx: RepoContext, @Body() body: CreateReleaseBody): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.create, { ...ctx, body });
  }

  @Get('latest')
  @RepoAccess(ReleaseSubjects.latest)
  latest(@CurrentRepo() ctx: RepoContext): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.latest, ctx);
  }

  @Get('tags/*')
  @RepoAccess(ReleaseSubjects.getByTag)
  getByTag(@CurrentRepo() ctx: RepoContext, @Param('*') tag: string): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.getByTag, { ...ctx, tag: tag ?? '' });
  }

  @Delete('tags/*')
  @RepoAccess(ReleaseSubjects.deleteByTag)
  @HttpCode(204)
  async deleteByTag(@CurrentRepo() ctx: RepoContext, @Param('*') tag: string): Promise<void> {
    await this.rpc.send(ReleaseSubjects.deleteByTag, { ...ctx, tag: tag ?? '' });
  }

  @Get(':id')
  @RepoAccess(ReleaseSubjects.get)
  get(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.get, { ...ctx, id });
  }

  @Patch(':id')
  @RepoAccess(ReleaseSubjects.edit)
  edit(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number, @Body() body: EditReleaseBody): Promise<ReleaseDto> {
    return this.rpc.send(ReleaseSubjects.edit, { ...ctx, id, body });
  }

  @Delete(':id')
  @RepoAccess(ReleaseSubjects.delete)
  @HttpCode(204)
  async delete(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(ReleaseSubjects.delete, { ...ctx, id });
  }

  @Get(':id/assets')
  @RepoAccess(ReleaseSubjects.assetList)
  listAssets(@CurrentRepo() ctx: RepoContext, @Param('id', PositiveIntPipe) id: number): Promise<AttachmentDto[]> {
    return this.rpc.send(ReleaseSubjects.assetList, { ...ctx, id });
  }

  /** The body (multipart `attachment`, or raw bytes named by `?name=`) is left unparsed for this route (json-body.ts). */
  @Post(':id/assets')
  @RepoAccess(RepoOperations.attachmentUpload)
  @HttpCode(201)
  createAsset(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Query('name') name: string | undefined,
    @Req() req: FastifyRequest,
  ): Promise<AttachmentDto> {
    if (!ctx.actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    const target = {
      repo: ctx.repo, releaseId: id, actorId: ctx.actor.id, access: ctx.access, name: typeof name === 'string' ? name : undefined,
    };
    return this.uploader.upload(req, target);
  }

  @Get(':id/assets/:attachment_id')
  @RepoAccess(ReleaseSubjects.assetGet)
  getAsset(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Param('attachment_id', PositiveIntPipe) attachmentId: number,
  ): Promise<AttachmentDto> {
    return this.rpc.send(ReleaseSubjects.assetGet, { ...ctx, id, attachmentId });
  }

  /** Gitea answers an edit with 201. */
  @Patch(':id/assets/:attachment_id')
  @RepoAccess(ReleaseSubjects.assetEdit)
  @HttpCode(201)
  editAsset(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Param('attachment_id', PositiveIntPipe) attachmentId: number,
    @Body() body: EditReleaseAssetBody,
  ): Promise<AttachmentDto> {
    return this.rpc.send(ReleaseSubjects.assetEdit, { ...ctx, id, attachmentId, body });
  }

  @Delete(':id/assets/:attachment_id')
  @RepoAccess(ReleaseSubjects.assetDelete)
  @HttpCode(204)
  async deleteAsset(
    @CurrentRepo() ctx: RepoContext,
    @Param('id', PositiveIntPipe) id: number,
    @Param('attachment_id', PositiveIntPipe) attachmentId: number,
  ): Promise<void> {
    await this.rpc.send(ReleaseSubjects.assetDelete, { ...ctx, id, attachmentId });
  }
}
