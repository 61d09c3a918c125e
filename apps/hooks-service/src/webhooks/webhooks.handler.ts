import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  HookCreateRequest, HookEditRequest, HookListRequest, HookRequest, HookTestRequest, HooksSubjects,
  RepositoryInitRequest, type HookDeliveryDto, type HookDto, type Paginated, type RepositoryInitReply,
} from '@cairn/contracts';
import { WebhooksService } from './webhooks.service.js';

@Controller()
export class WebhooksHandler {
  constructor(private readonly hooks: WebhooksService) {}

  @RpcHandler(HooksSubjects.webhookList)
  list(@Payload() req: HookListRequest): Promise<Paginated<HookDto>> {
    return this.hooks.list(req.actor, req.scope, req.query);
  }

  @RpcHandler(HooksSubjects.webhookGet)
  get(@Payload() req: HookRequest): Promise<HookDto> {
    return this.hooks.get(req.actor, req.scope, req.hookId);
  }

  @RpcHandler(HooksSubjects.webhookCreate)
  create(@Payload() req: HookCreateRequest): Promise<HookDto> {
    return this.hooks.create(req.actor, req.scope, req.body);
  }

  @RpcHandler(HooksSubjects.webhookEdit)
  edit(@Payload() req: HookEditRequest): Promise<HookDto> {
    return this.hooks.edit(req.actor, req.scope, req.hookId, req.body);
  }

  @RpcHandler(HooksSubjects.webhookDelete)
  async delete(@Payload() req: HookRequest): Promise<Record<string, never>> {
    await this.hooks.delete(req.actor, req.scope, req.hookId);
    return {};
  }

  @RpcHandler(HooksSubjects.webhookTest)
  test(@Payload() req: HookTestRequest): Promise<HookDeliveryDto> {
    return this.hooks.test(req.actor, req.scope, req.hookId, req.ref);
  }

  @RpcHandler(HooksSubjects.repositoryInit)
  repositoryInit(@Payload() req: RepositoryInitRequest): Promise<RepositoryInitReply> {
    return this.hooks.repositoryInit(req.repository.id);
  }
}
