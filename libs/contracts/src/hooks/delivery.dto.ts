import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { HookRequest } from './hook.dto.js';

export const DELIVERY_STATES = ['pending', 'delivering', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export class ListDeliveriesQuery extends ListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) per_page?: number;
}

export class HookDeliveryListRequest extends HookRequest {
  @IsOptional() @ValidateNested() @Type(() => ListDeliveriesQuery) query?: ListDeliveriesQuery;
}

export class HookDeliveryRequest extends HookRequest {
  @IsInt() @Min(1) deliveryId: number;
}

/** GitHub's `hook-delivery-item`, plus Cairn's state and attempt count. */
export interface HookDeliveryDto {
  id: number;
  /** `X-Gitea-Delivery`/`X-GitHub-Delivery`, the same on every attempt and redelivery. */
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: null;
  repository_id: number | null;
  throttled_at: null;
  hook_id: number;
  event_type: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
}

export interface HookDeliveryAttemptDto {
  number: number;
  redelivery: boolean;
  delivered_at: string;
  duration: number;
  status: string;
  status_code: number;
  outcome: 'delivered' | 'retry' | 'failed';
  error: string | null;
  request: { headers: Record<string, string>; payload: unknown };
  response: { headers: Record<string, string>; payload: string | null };
}

export interface HookDeliveryDetailDto extends HookDeliveryDto {
  url: string;
  request: { headers: Record<string, string> | null; payload: unknown };
  response: { headers: Record<string, string> | null; payload: string | null };
  attempt_log: HookDeliveryAttemptDto[];
}
