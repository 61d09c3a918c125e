import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  ChangeFilesBody, CommitFlagsQuery, CreateBranchBody, CreateFileBody, DeleteFileBody, DomainError, FileContentsQuery, GetFilesBody,
  ListCommitsQuery, ListQuery, RefQuery, RenameBranchBody, RepoSubjects, UpdateFileBody,
  parseGiteaBool,
  type BranchDto, type ChangeFileOperationBody, type ChangeFilesReply, type CommitDto, type CommitOptions, type CompareDto,
  type ContentsResponseDto, type FileDeleteResponseDto, type FileOptionsBody, type FileResponseDto,
  type FilesResponseDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentRepo, MustNotBeArchived, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../config/gateway-settings.js';
import { AlsoAnswers } from '../../http/also-answers.js';
import { sendPage } from '../../http/pagination.js';
import { InternalRawClient } from './internal-raw.client.js';
import { sendRawBlob } from './send-raw.js';

/** Gitea's `GET …/file-contents?body=`: the URL-encoded JSON of `GetFilesOptions` (400 when unusable). */
export function parseFilesBodyParam(raw: string | undefined): string[] {
  const invalid = () => DomainError.invalid('invalid body parameter');
  if (raw === undefined) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid();
  const files = (parsed as { files?: unknown }).files;
  if (files === undefined || files === null) return [];
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) throw invalid();
  return files;
}

function commitOptions(q: CommitFlagsQuery): CommitOptions {
  return {
    stat: parseGiteaBool(q.stat),
    verification: parseGiteaBool(q.verification),
    files: parseGiteaBool(q.files),
  };
}

/**
 * Repository contents, raw files, batch file contents, commits and branches (Gitea's `routers/api/v1/repo`
 * `file.go`, `commits.go`, `branch.go`). Thin: one repo-service call per route; the only work here is putting
 * large blob bytes (which do not fit in a bus message) back into the answer from repo-service's internal HTTP.
 */
@Controller('repos/:owner/:repo')
@ScopeCategoryOf('repository')
export class RepoContentController {
  private readonly internalRaw: InternalRawClient;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {
    this.internalRaw = new InternalRawClient(common);
  }

  @Get('contents')
  @RepoAccess(RepoSubjects.contentsGet)
  listRoot(@CurrentRepo() ctx: RepoContext, @Query() q: RefQuery): Promise<ContentsResponseDto | ContentsResponseDto[]> {
    return this.contents(ctx, '', q.ref);
  }

  @Get('contents/*')
  @RepoAccess(RepoSubjects.contentsGet)
  get(
    @CurrentRepo() ctx: RepoContext,
    @Param('*') path: string,
    @Query() q: RefQuery,
  ): Promise<ContentsResponseDto | ContentsResponseDto[]> {
    return this.contents(ctx, path ?? '', q.ref);
  }

  /** `media/*` is Gitea's "raw file or LFS object": Cairn stores no LFS objects, so it is exactly `raw/*`. */
  @Get(['raw/*', 'media/*'])
  @RepoAccess(RepoSubjects.rawGet)
  async raw(
    @CurrentRepo() ctx: RepoContext,
    @Param('*') path: string,
    @Query() q: RefQuery,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendRawBlob(this.rpc, this.internalRaw, ctx, path ?? '', q.ref, reply);
  }

  @Get('file-contents')
  @RepoAccess(RepoSubjects.fileContents)
  fileContentsGet(@CurrentRepo() ctx: RepoContext, @Query() q: FileContentsQuery): Promise<(ContentsResponseDto | null)[]> {
    return this.fileContents(ctx, q.ref, parseFilesBodyParam(q.body));
  }

  /** A read, but POST: with token authentication it needs `write:repository`, as in Gitea. */
  @Post('file-contents')
  @RepoAccess(RepoSubjects.fileContents)
  @HttpCode(200)
  fileContentsPost(
    @CurrentRepo() ctx: RepoContext,
    @Query() q: RefQuery,
    @Body() body: GetFilesBody,
  ): Promise<(ContentsResponseDto | null)[]> {
    return this.fileContents(ctx, q.ref, body.files);
  }

  /** Gitea's `repoChangeFiles`: several files created, updated, renamed or deleted in one commit. */
  @Post('contents')
  @RepoAccess(RepoSubjects.contentsChange)
  @HttpCode(201)
  async changeFiles(@CurrentRepo() ctx: RepoContext, @Body() body: ChangeFilesBody): Promise<FilesResponseDto> {
    return (await this.changeContents(ctx, body, body.files)).response;
  }

  @Post('contents/*')
  @RepoAccess(RepoSubjects.contentsChange)
  @HttpCode(201)
  async createFile(@CurrentRepo() ctx: RepoContext, @Param('*') path: string, @Body() body: CreateFileBody): Promise<FileResponseDto> {
    const reply = await this.changeContents(ctx, body, [{ operation: 'create', path: path ?? '', content: body.content }]);
    return { content: reply.response.files[0] ?? null, commit: reply.response.commit, verification: reply.response.verification };
  }

  /** With `sha`, an update (and a rename with `from_path`); without, the file is created (201), as Gitea 1.25. */
  @Put('contents/*')
  @RepoAccess(RepoSubjects.contentsChange)
  @AlsoAnswers(201)
  async updateFile(
    @CurrentRepo() ctx: RepoContext,
    @Param('*') path: string,
    @Body() body: UpdateFileBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FileResponseDto> {
    const file: ChangeFileOperationBody = body.sha
      ? { operation: 'update', path: path ?? '', content: body.content, sha: body.sha, from_path: body.from_path }
      : { operation: 'create', path: path ?? '', content: body.content, from_path: body.from_path };
    if (!body.sha && body.from_path && body.from_path !== path) file.operation = 'rename';
    const answer = await this.changeContents(ctx, body, [file]);
    void reply.status(answer.created ? 201 : 200);
    return { content: answer.response.files[0] ?? null, commit: answer.response.commit, verification: answer.response.verification };
  }

  @Delete('contents/*')
  @RepoAccess(RepoSubjects.contentsChange)
  @HttpCode(200)
  async deleteFile(@CurrentRepo() ctx: RepoContext, @Param('*') path: string, @Body() body: DeleteFileBody): Promise<FileDeleteResponseDto> {
    const answer = await this.changeContents(ctx, body, [{ operation: 'delete', path: path ?? '', sha: body.sha }]);
    return { content: null, commit: answer.response.commit, verification: answer.response.verification };
  }

  @Get('commits')
  @RepoAccess(RepoSubjects.commitList)
  async commits(
    @CurrentRepo() ctx: RepoContext,
    @Query() q: ListCommitsQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CommitDto[]> {
    const page = await this.rpc.send(RepoSubjects.commitList, {
      ...ctx,
      filter: { sha: q.sha, path: q.path, not: q.not, since: q.since, until: q.until, page: q.page, limit: q.limit },
      options: commitOptions(q),
    });
    const items = sendPage(req, reply, page, { page: page.page, limit: page.pageSize }, this.common.rootUrl);
    const pageCount = Math.ceil(page.total / page.pageSize);
    void reply
      .header('x-page', String(page.page))
      .header('x-perpage', String(page.pageSize))
      .header('x-total', String(page.total))
      .header('x-pagecount', String(pageCount))
      .header('x-hasmore', String(page.page < pageCount))
      .header('access-control-expose-headers', 'X-Total-Count, Link, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore');
    return items;
  }

  @Get('git/commits/:sha')
  @RepoAccess(RepoSubjects.commitGet)
  commit(@CurrentRepo() ctx: RepoContext, @Param('sha') sha: string, @Query() q: CommitFlagsQuery): Promise<CommitDto> {
    return this.rpc.send(RepoSubjects.commitGet, { ...ctx, sha, options: commitOptions(q) });
  }

  /** `base...head` or `base..head` (or only a head, against the default branch): the commits head adds. */
  @Get('compare/*')
  @RepoAccess(RepoSubjects.compare)
  compare(@CurrentRepo() ctx: RepoContext, @Param('*') basehead: string, @Query() q: CommitFlagsQuery): Promise<CompareDto> {
    return this.rpc.send(RepoSubjects.compare, { ...ctx, basehead: basehead ?? '', options: commitOptions(q) });
  }

  @Get('branches')
  @RepoAccess(RepoSubjects.branchList)
  async branches(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BranchDto[]> {
    const page = await this.rpc.send(RepoSubjects.branchList, { ...ctx, query });
    return sendPage(req, reply, page, query, this.common.rootUrl);
  }

  @Get('branches/*')
  @RepoAccess(RepoSubjects.branchGet)
  branch(@CurrentRepo() ctx: RepoContext, @Param('*') branch: string): Promise<BranchDto> {
    return this.rpc.send(RepoSubjects.branchGet, { ...ctx, branch: branch ?? '' });
  }

  @Post('branches')
  @MustNotBeArchived()
  @RepoAccess(RepoSubjects.branchCreate)
  createBranch(@CurrentRepo() ctx: RepoContext, @Body() body: CreateBranchBody): Promise<BranchDto> {
    return this.rpc.send(RepoSubjects.branchCreate, { ...ctx, body });
  }

  @Delete('branches/*')
  @MustNotBeArchived()
  @RepoAccess(RepoSubjects.branchDelete)
  @HttpCode(204)
  async deleteBranch(@CurrentRepo() ctx: RepoContext, @Param('*') branch: string): Promise<void> {
    await this.rpc.send(RepoSubjects.branchDelete, { ...ctx, branch: branch ?? '' });
  }

  @Patch('branches/*')
  @MustNotBeArchived()
  @RepoAccess(RepoSubjects.branchRename)
  @HttpCode(204)
  async renameBranch(@CurrentRepo() ctx: RepoContext, @Param('*') branch: string, @Body() body: RenameBranchBody): Promise<void> {
    await this.rpc.send(RepoSubjects.branchRename, { ...ctx, branch: branch ?? '', body });
  }

  private async contents(
    ctx: RepoContext,
    path: string,
    ref: string | undefined,
  ): Promise<ContentsResponseDto | ContentsResponseDto[]> {
    const reply = await this.rpc.send(RepoSubjects.contentsGet, {
      ...ctx,
      path,
      ref,
      maxBlobSize: this.settings.defaultMaxBlobSize,
    });
    if (reply.dir) return reply.dir;
    const file = reply.file!;
    if (reply.deferred) await this.fillContent(ctx, reply.commit, file);
    return file;
  }

  private async fileContents(
    ctx: RepoContext,
    ref: string | undefined,
    files: string[],
  ): Promise<(ContentsResponseDto | null)[]> {
    const reply = await this.rpc.send(RepoSubjects.fileContents, {
      ...ctx,
      ref,
      files,
      limits: {
        pagingNum: this.settings.defaultPagingNum,
        maxBlobSize: this.settings.defaultMaxBlobSize,
        maxResponseSize: this.settings.defaultMaxResponseSize,
      },
    });
    for (const i of reply.deferred) {
      const entry = reply.items[i];
      if (entry) await this.fillContent(ctx, reply.commit, entry);
    }
    return reply.items;
  }

  /** One `repo.contents.change` call; large file contents come back deferred and are filled in here. */
  private async changeContents(ctx: RepoContext, options: FileOptionsBody, files: ChangeFileOperationBody[]): Promise<ChangeFilesReply> {
    const { message, branch, new_branch, author, committer, dates, signoff, force_push } = options;
    const reply = await this.rpc.send(RepoSubjects.contentsChange, {
      ...ctx,
      body: { message, branch, new_branch, author, committer, dates, signoff, force_push, files },
      maxBlobSize: this.settings.defaultMaxBlobSize,
    });
    for (const i of reply.deferred) {
      const entry = reply.response.files[i];
      if (entry) await this.fillContent(ctx, reply.response.commit.sha, entry);
    }
    return reply;
  }

  /** Puts the base64 content of a file that was too large for the bus into its entry. */
  private async fillContent(ctx: RepoContext, commit: string, entry: ContentsResponseDto): Promise<void> {
    const bytes = await this.internalRaw.read(ctx.repo, commit, entry.path, entry.size);
    entry.content = bytes.toString('base64');
    entry.encoding = 'base64';
  }
}
