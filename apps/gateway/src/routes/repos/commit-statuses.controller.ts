import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import {
  CommitStatusSubjects, CreateStatusBody, ListQuery, ListStatusesQuery,
  type CombinedStatusDto, type CommitStatusDto, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/**
 * Commit statuses (Gitea's `routers/api/v1/repo/status.go`): reading needs read access to the code, reporting
 * write access (anonymous: 401).
 */
@Controller('repos/:owner/:repo')
@ScopeCategoryOf('repository')
export class CommitStatusesController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('statuses/:sha')
  @RepoAccess(CommitStatusSubjects.create)
  create(
    @CurrentRepo() ctx: RepoContext,
    @Param('sha') sha: string,
    @Body() body: CreateStatusBody,
  ): Promise<CommitStatusDto> {
    return this.rpc.send(CommitStatusSubjects.create, { ...ctx, sha, body });
  }

  @Get('statuses/:sha')
  @RepoAccess(CommitStatusSubjects.list)
  @Paged()
  list(
    @CurrentRepo() ctx: RepoContext,
    @Param('sha') sha: string,
    @Query() query: ListStatusesQuery,
  ): Promise<Paginated<CommitStatusDto>> {
    return this.rpc.send(CommitStatusSubjects.list, { ...ctx, ref: sha, query });
  }

  @Get('commits/:ref/statuses')
  @RepoAccess(CommitStatusSubjects.list)
  @Paged()
  listByRef(
    @CurrentRepo() ctx: RepoContext,
    @Param('ref') ref: string,
    @Query() query: ListStatusesQuery,
  ): Promise<Paginated<CommitStatusDto>> {
    return this.rpc.send(CommitStatusSubjects.list, { ...ctx, ref, refMustExist: true, query });
  }

  @Get('commits/:ref/status')
  @RepoAccess(CommitStatusSubjects.combined)
  async combined(
    @CurrentRepo() ctx: RepoContext,
    @Param('ref') ref: string,
    @Query() query: ListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CombinedStatusDto> {
    const answer = await this.rpc.send(CommitStatusSubjects.combined, { ...ctx, ref, query });
    // Gitea counts the contexts (no Link header here).
    void reply.header('x-total-count', String(answer.total)).header('access-control-expose-headers', 'X-Total-Count');
    return answer.status;
  }
}
