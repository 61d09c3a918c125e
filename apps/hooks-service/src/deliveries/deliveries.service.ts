import { Injectable } from '@nestjs/common';
import {
  DomainError, toPaging, type ActorDto, type HookDeliveryDetailDto, type HookDeliveryDto, type HookScopeDto,
  type ListDeliveriesQuery, type Paginated,
} from '@cairn/contracts';
import { HookScopeResolver } from '../webhooks/hook-scope.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryQueue } from './delivery-queue.js';
import { toDeliveryDetailDto, toDeliveryDto } from './delivery.mapper.js';

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly scopes: HookScopeResolver,
    private readonly hooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  private async hookOf(actor: ActorDto | null, scope: HookScopeDto, hookId: number) {
    const owner = await this.scopes.resolve(actor, scope);
    const hook = await this.hooks.find(owner, hookId);
    if (!hook) throw DomainError.notFound('hook does not exist');
    return hook;
  }

  async list(actor: ActorDto | null, scope: HookScopeDto, hookId: number, query: ListDeliveriesQuery = {}) {
    const hook = await this.hookOf(actor, scope, hookId);
    const paging = toPaging({ page: query.page, limit: query.per_page ?? query.limit });
    const { items, total } = await this.deliveries.list(hook.id, paging.skip, paging.take);
    return { items: items.map(toDeliveryDto), total } satisfies Paginated<HookDeliveryDto>;
  }

  async get(actor: ActorDto | null, scope: HookScopeDto, hookId: number, deliveryId: number): Promise<HookDeliveryDetailDto> {
    const hook = await this.hookOf(actor, scope, hookId);
    const row = await this.deliveries.findForHook(hook.id, deliveryId);
    if (!row) throw DomainError.notFound('delivery does not exist');
    return toDeliveryDetailDto(row, hook.url);
  }

  /** A new round for a finished delivery: same guid, `redelivery: true`, its own attempt budget. */
  async redeliver(actor: ActorDto | null, scope: HookScopeDto, hookId: number, deliveryId: number): Promise<HookDeliveryDto> {
    const hook = await this.hookOf(actor, scope, hookId);
    const row = await this.deliveries.startRedelivery(hook.id, deliveryId);
    if (!row) {
      const existing = await this.deliveries.findForHook(hook.id, deliveryId);
      if (!existing) throw DomainError.notFound('delivery does not exist');
      throw DomainError.conflict('the delivery is still in progress; redeliver it once it has been delivered or has failed');
    }
    await this.queue.enqueue([{ deliveryId: row.id, attempt: row.attempts + 1 }]);
    return toDeliveryDto(row);
  }
}
