import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  ListTopicsRequest, ReplaceTopicsRequest, RepoSubjects, TopicRequest, type ListTopicsReply,
} from '@cairn/contracts';
import { TopicsService } from './topics.service.js';

@Controller()
export class TopicsHandler {
  constructor(private readonly topics: TopicsService) {}

  @RpcHandler(RepoSubjects.topicList)
  list(@Payload() req: ListTopicsRequest): Promise<ListTopicsReply> {
    return this.topics.list(req);
  }

  @RpcHandler(RepoSubjects.topicReplace)
  async replace(@Payload() req: ReplaceTopicsRequest): Promise<null> {
    await this.topics.replace(req);
    return null;
  }

  @RpcHandler(RepoSubjects.topicAdd)
  async add(@Payload() req: TopicRequest): Promise<null> {
    await this.topics.add(req);
    return null;
  }

  @RpcHandler(RepoSubjects.topicDelete)
  async delete(@Payload() req: TopicRequest): Promise<null> {
    await this.topics.delete(req);
    return null;
  }
}
