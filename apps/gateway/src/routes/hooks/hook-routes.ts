import {
  HooksSubjects, type ActorDto, type CreateHookBody, type EditHookBody, type HookDeliveryDetailDto,
  type HookDeliveryDto, type HookDto, type HookScopeDto, type ListDeliveriesQuery, type ListHooksQuery,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../../http/pagination.js';

/** Same at admin, organization and repository level; only the scope differs. */
export class HookRoutes {
  constructor(
    private readonly rpc: RpcClient,
    private readonly rootUrl: string,
  ) {}

  async list(actor: ActorDto | null, scope: HookScopeDto, query: ListHooksQuery, req: FastifyRequest, reply: FastifyReply) {
    const page = await this.rpc.send(HooksSubjects.webhookList, { actor, scope, query });
    return sendPage(req, reply, page, query, this.rootUrl);
  }

  get(actor: ActorDto | null, scope: HookScopeDto, hookId: number): Promise<HookDto> {
    return this.rpc.send(HooksSubjects.webhookGet, { actor, scope, hookId });
  }

  create(actor: ActorDto | null, scope: HookScopeDto, body: CreateHookBody): Promise<HookDto> {
    return this.rpc.send(HooksSubjects.webhookCreate, { actor, scope, body });
  }

  edit(actor: ActorDto | null, scope: HookScopeDto, hookId: number, body: EditHookBody | undefined): Promise<HookDto> {
    return this.rpc.send(HooksSubjects.webhookEdit, { actor, scope, hookId, body: body ?? {} });
  }

  async delete(actor: ActorDto | null, scope: HookScopeDto, hookId: number): Promise<void> {
    await this.rpc.send(HooksSubjects.webhookDelete, { actor, scope, hookId });
  }

  async deliveries(
    actor: ActorDto | null,
    scope: HookScopeDto,
    hookId: number,
    query: ListDeliveriesQuery,
    req: FastifyRequest,
    reply: FastifyReply,
  ) {
    const page = await this.rpc.send(HooksSubjects.deliveryList, { actor, scope, hookId, query });
    return sendPage(req, reply, page, { page: query.page, limit: query.per_page ?? query.limit }, this.rootUrl);
  }

  delivery(actor: ActorDto | null, scope: HookScopeDto, hookId: number, deliveryId: number): Promise<HookDeliveryDetailDto> {
    return this.rpc.send(HooksSubjects.deliveryGet, { actor, scope, hookId, deliveryId });
  }

  redeliver(actor: ActorDto | null, scope: HookScopeDto, hookId: number, deliveryId: number): Promise<HookDeliveryDto> {
    return this.rpc.send(HooksSubjects.deliveryRedeliver, { actor, scope, hookId, deliveryId });
  }
}
