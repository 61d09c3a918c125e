import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  HookDeliveryListRequest, HookDeliveryRequest, HooksSubjects, type HookDeliveryDetailDto, type HookDeliveryDto,
  type Paginated,
} from '@cairn/contracts';
import { DeliveriesService } from './deliveries.service.js';

@Controller()
export class DeliveriesHandler {
  constructor(private readonly deliveries: DeliveriesService) {}

  @RpcHandler(HooksSubjects.deliveryList)
  list(@Payload() req: HookDeliveryListRequest): Promise<Paginated<HookDeliveryDto>> {
    return this.deliveries.list(req.actor, req.scope, req.hookId, req.query);
  }

  @RpcHandler(HooksSubjects.deliveryGet)
  get(@Payload() req: HookDeliveryRequest): Promise<HookDeliveryDetailDto> {
    return this.deliveries.get(req.actor, req.scope, req.hookId, req.deliveryId);
  }

  @RpcHandler(HooksSubjects.deliveryRedeliver)
  redeliver(@Payload() req: HookDeliveryRequest): Promise<HookDeliveryDto> {
    return this.deliveries.redeliver(req.actor, req.scope, req.hookId, req.deliveryId);
  }
}
