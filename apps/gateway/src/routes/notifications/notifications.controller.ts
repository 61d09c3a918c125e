import { Controller, Get, HttpCode, Param, Patch, Put, Query } from '@nestjs/common';
import {
  DomainError, MAX_INT32, NotificationListQuery, NotificationReadQuery, NotificationThreadQuery, RepoSubjects,
  type ActorDto, type NotificationCountDto, type NotificationThreadDto, type Paginated,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/** A thread id as Gitea reads `{id}`: anything that is not one names no thread (404). */
function threadId(value: string): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : 0;
  if (n < 1 || n > MAX_INT32) throw DomainError.notFound(`notification thread ${value} does not exist`);
  return n;
}

/**
 * The signed-in user's notification threads (Gitea's `routers/api/v1/notify`), all under the `notification` token
 * scope — `/repos/{owner}/{repo}/notifications` too, which also needs the repository to be visible.
 */
@Controller()
@ScopeCategoryOf('notification')
@SignInRequired()
export class NotificationsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('notifications')
  @Paged()
  list(@CurrentActor() actor: ActorDto, @Query() query: NotificationListQuery): Promise<Paginated<NotificationThreadDto>> {
    return this.rpc.send(RepoSubjects.notificationList, { actor, query });
  }

  @Put('notifications')
  @HttpCode(205)
  read(@CurrentActor() actor: ActorDto, @Query() query: NotificationReadQuery): Promise<NotificationThreadDto[]> {
    return this.rpc.send(RepoSubjects.notificationRead, { actor, query });
  }

  @Get('notifications/new')
  count(@CurrentActor() actor: ActorDto): Promise<NotificationCountDto> {
    return this.rpc.send(RepoSubjects.notificationCount, { actor });
  }

  @Get('notifications/threads/:id')
  thread(@CurrentActor() actor: ActorDto, @Param('id') id: string): Promise<NotificationThreadDto> {
    return this.rpc.send(RepoSubjects.notificationThreadGet, { actor, id: threadId(id) });
  }

  @Patch('notifications/threads/:id')
  @HttpCode(205)
  readThread(
    @CurrentActor() actor: ActorDto,
    @Param('id') id: string,
    @Query() query: NotificationThreadQuery,
  ): Promise<NotificationThreadDto> {
    return this.rpc.send(RepoSubjects.notificationThreadRead, { actor, id: threadId(id), toStatus: query['to-status'] });
  }

  @Get('repos/:owner/:repo/notifications')
  @RepoAccess(RepoSubjects.notificationList)
  @Paged()
  repoList(
    @CurrentActor() actor: ActorDto,
    @CurrentRepo() ctx: RepoContext,
    @Query() query: NotificationListQuery,
  ): Promise<Paginated<NotificationThreadDto>> {
    return this.rpc.send(RepoSubjects.notificationList, { actor, repo: ctx.repo, access: ctx.access, query });
  }

  @Put('repos/:owner/:repo/notifications')
  @RepoAccess(RepoSubjects.notificationRead)
  @HttpCode(205)
  repoRead(
    @CurrentActor() actor: ActorDto,
    @CurrentRepo() ctx: RepoContext,
    @Query() query: NotificationReadQuery,
  ): Promise<NotificationThreadDto[]> {
    return this.rpc.send(RepoSubjects.notificationRead, { actor, repo: ctx.repo, access: ctx.access, query });
  }
}
