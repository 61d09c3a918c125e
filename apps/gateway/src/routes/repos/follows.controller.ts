import { Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import {
  DomainError, ListQuery, RepoSubjects,
  type ActorDto, type FollowKind, type Paginated, type RepositoryDto, type UserDto, type WatchInfoDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { Paged } from '../../http/paged.js';

/** Stars and watches of the caller (`/user/starred`, `/user/subscriptions`; Gitea: repository scope). */
@Controller('user')
@ScopeCategoryOf('repository')
@SignInRequired()
export class OwnFollowsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('starred')
  @Paged()
  starred(@CurrentActor() actor: ActorDto, @Query() query: ListQuery): Promise<Paginated<RepositoryDto>> {
    return this.rpc.send(RepoSubjects.followFollowed, { actor, kind: 'star', query });
  }

  @Get('subscriptions')
  @Paged()
  subscriptions(@CurrentActor() actor: ActorDto, @Query() query: ListQuery): Promise<Paginated<RepositoryDto>> {
    return this.rpc.send(RepoSubjects.followFollowed, { actor, kind: 'watch', query });
  }

  /** 204 when the caller stars the repository, 404 when not. */
  @Get('starred/:owner/:repo')
  @RepoAccess(RepoSubjects.followCheck)
  @HttpCode(204)
  async isStarring(@CurrentRepo() ctx: RepoContext): Promise<void> {
    const state = await this.rpc.send(RepoSubjects.followCheck, { ...ctx, kind: 'star' });
    if (!state.following) throw DomainError.notFound('not starred');
  }

  @Put('starred/:owner/:repo')
  @RepoAccess(RepoSubjects.followSet)
  @HttpCode(204)
  async star(@CurrentRepo() ctx: RepoContext): Promise<void> {
    await this.rpc.send(RepoSubjects.followSet, { ...ctx, kind: 'star', on: true });
  }

  @Delete('starred/:owner/:repo')
  @RepoAccess(RepoSubjects.followSet)
  @HttpCode(204)
  async unstar(@CurrentRepo() ctx: RepoContext): Promise<void> {
    await this.rpc.send(RepoSubjects.followSet, { ...ctx, kind: 'star', on: false });
  }
}

/** Another user's stars and watches (`/users/{username}/starred|subscriptions`): what the viewer may see of them. */
@Controller('users/:username')
@ScopeCategoryOf('repository')
export class UserFollowsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('starred')
  @Paged()
  starred(
    @CurrentActor() actor: ActorDto | null,
    @Param('username') username: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.followed(actor, username, 'star', query);
  }

  @Get('subscriptions')
  @Paged()
  subscriptions(
    @CurrentActor() actor: ActorDto | null,
    @Param('username') username: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<RepositoryDto>> {
    return this.followed(actor, username, 'watch', query);
  }

  private followed(actor: ActorDto | null, username: string, kind: FollowKind, query: ListQuery) {
    return this.rpc.send(RepoSubjects.followFollowed, { actor, username, kind, query });
  }
}

/** A repository's stargazers and subscribers, and the caller's watch (`/repos/{owner}/{repo}/subscription`). */
@Controller('repos/:owner/:repo')
@ScopeCategoryOf('repository')
export class RepoFollowsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('stargazers')
  @RepoAccess(RepoSubjects.followFollowers)
  @Paged()
  stargazers(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<Paginated<UserDto>> {
    return this.rpc.send(RepoSubjects.followFollowers, { ...ctx, kind: 'star', query });
  }

  @Get('subscribers')
  @RepoAccess(RepoSubjects.followFollowers)
  @Paged()
  subscribers(@CurrentRepo() ctx: RepoContext, @Query() query: ListQuery): Promise<Paginated<UserDto>> {
    return this.rpc.send(RepoSubjects.followFollowers, { ...ctx, kind: 'watch', query });
  }

  /** Gitea's `WatchInfo` when the caller watches the repository, 404 when not. */
  @Get('subscription')
  @SignInRequired()
  @RepoAccess(RepoSubjects.followCheck)
  async watching(@CurrentRepo() ctx: RepoContext): Promise<WatchInfoDto> {
    const state = await this.rpc.send(RepoSubjects.followCheck, { ...ctx, kind: 'watch' });
    if (!state.following) throw DomainError.notFound('not watched');
    return state.watch;
  }

  @Put('subscription')
  @SignInRequired()
  @RepoAccess(RepoSubjects.followSet)
  async watch(@CurrentRepo() ctx: RepoContext): Promise<WatchInfoDto> {
    return (await this.rpc.send(RepoSubjects.followSet, { ...ctx, kind: 'watch', on: true })).watch;
  }

  @Delete('subscription')
  @SignInRequired()
  @RepoAccess(RepoSubjects.followSet)
  @HttpCode(204)
  async unwatch(@CurrentRepo() ctx: RepoContext): Promise<void> {
    await this.rpc.send(RepoSubjects.followSet, { ...ctx, kind: 'watch', on: false });
  }
}
