import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Put, Query, Req, Res } from '@nestjs/common';
import { ListQuery, RepoSubjects, RepoTopicOptionsBody, type TopicNamesDto } from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf } from '../../auth/policy.decorators.js';
import { sendPage } from '../../http/pagination.js';

/** A repository's topics (Gitea's `routers/api/v1/repo/topic.go`); the rules live in repo-service. */
@Controller('repos/:owner/:repo/topics')
@ScopeCategoryOf('repository')
export class TopicsController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  @Get()
  @RepoAccess(RepoSubjects.topicList)
  async list(
    @CurrentRepo() ctx: RepoContext,
    @Query() query: ListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TopicNamesDto> {
    const page = await this.rpc.send(RepoSubjects.topicList, { ...ctx, query });
    return { topics: sendPage(req, reply, { items: page.topics, total: page.total }, query, this.common.rootUrl) };
  }

  @Put()
  @RepoAccess(RepoSubjects.topicReplace)
  @HttpCode(204)
  async replace(@CurrentRepo() ctx: RepoContext, @Body() body: RepoTopicOptionsBody): Promise<void> {
    await this.rpc.send(RepoSubjects.topicReplace, { ...ctx, topics: body.topics });
  }

  @Put(':topic')
  @RepoAccess(RepoSubjects.topicAdd)
  @HttpCode(204)
  async add(@CurrentRepo() ctx: RepoContext, @Param('topic') topic: string): Promise<void> {
    await this.rpc.send(RepoSubjects.topicAdd, { ...ctx, topic });
  }

  @Delete(':topic')
  @RepoAccess(RepoSubjects.topicDelete)
  @HttpCode(204)
  async remove(@CurrentRepo() ctx: RepoContext, @Param('topic') topic: string): Promise<void> {
    await this.rpc.send(RepoSubjects.topicDelete, { ...ctx, topic });
  }
}
