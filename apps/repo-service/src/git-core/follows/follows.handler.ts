import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CheckFollowRequest, ListFollowedRequest, ListFollowersRequest, RepoSubjects, SetFollowRequest,
  type FollowStateReply, type Paginated, type RepositoryDto, type UserDto,
} from '@cairn/contracts';
import { FollowsService } from './follows.service.js';

@Controller()
export class FollowsHandler {
  constructor(private readonly follows: FollowsService) {}

  @RpcHandler(RepoSubjects.followSet)
  set(@Payload() req: SetFollowRequest): Promise<FollowStateReply> {
    return this.follows.set(req);
  }

  @RpcHandler(RepoSubjects.followCheck)
  check(@Payload() req: CheckFollowRequest): Promise<FollowStateReply> {
    return this.follows.check(req);
  }

  @RpcHandler(RepoSubjects.followFollowers)
  followers(@Payload() req: ListFollowersRequest): Promise<Paginated<UserDto>> {
    return this.follows.followers(req);
  }

  @RpcHandler(RepoSubjects.followFollowed)
  followed(@Payload() req: ListFollowedRequest): Promise<Paginated<RepositoryDto>> {
    return this.follows.followed(req);
  }
}
