import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, RepoUrls, placeholderUser, toPaging,
  type CheckFollowRequest, type FollowStateReply, type ListFollowedRequest, type ListFollowersRequest, type Paginated,
  type RepoScopedRequest, type RepositoryDto, type SetFollowRequest, type UserDto, toApiTime
} from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { RepositoriesRepository } from '../repositories/repositories.repository.js';
import { RepositoriesService } from '../repositories/repositories.service.js';
import { FollowsRepository } from './follows.repository.js';

/** The most recent follows a list looks at (each is checked for visibility one by one). */
const FOLLOWED_MAX = 1000;

/** Anyone signed in who can read a repository may star or watch it; lists show only what the viewer may see. */
@Injectable()
export class FollowsService {
  constructor(
    private readonly follows: FollowsRepository,
    private readonly repositories: RepositoriesService,
    private readonly rows: RepositoriesRepository,
    private readonly identity: IdentityDirectory,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  async set(req: SetFollowRequest): Promise<FollowStateReply> {
    const userId = this.reader(req);
    await this.follows.set(req.kind, req.repo.id, userId, req.on);
    return this.state(req, req.on);
  }

  async check(req: CheckFollowRequest): Promise<FollowStateReply> {
    const userId = this.reader(req);
    return this.state(req, await this.follows.exists(req.kind, req.repo.id, userId));
  }

  async followers(req: ListFollowersRequest): Promise<Paginated<UserDto>> {
    const { userIds, total } = await this.follows.followers(req.kind, req.repo.id, toPaging(req.query));
    const users = await this.identity.usersById(userIds);
    return { items: userIds.map((id) => users.get(id) ?? placeholderUser(id, `user-${id}`, this.common.rootUrl)), total };
  }

  /** What the user follows, filtered to what the actor may see, then paged (most recent first). */
  async followed(req: ListFollowedRequest): Promise<Paginated<RepositoryDto>> {
    let userId: number;
    if (req.username === undefined) {
      if (!req.actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      userId = req.actor.id;
    } else {
      const user = await this.identity.userByLogin(req.username);
      if (!user) throw DomainError.notFound(`user "${req.username}" does not exist`);
      userId = user.id;
    }
    const ids = (await this.follows.followed(req.kind, userId)).slice(0, FOLLOWED_MAX);
    const visible = await this.repositories.visible({ actor: req.actor, ids });
    const paging = toPaging(req.query);
    return { items: visible.slice(paging.skip, paging.skip + paging.take), total: visible.length };
  }

  private async state(req: RepoScopedRequest, following: boolean): Promise<FollowStateReply> {
    const api = new RepoUrls(this.common.rootUrl, req.repo).api;
    const row = await this.rows.findById(req.repo.id);
    if (!row) throw DomainError.notFound('repository not found');
    return {
      following,
      watch: {
        subscribed: following,
        ignored: false,
        reason: null,
        created_at: toApiTime(row.createdAt),
        url: `${api}/subscription`,
        repository_url: api,
      },
    };
  }

  private reader(req: RepoScopedRequest): number {
    if (!req.actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    return req.actor.id;
  }
}
