import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { ListQuery } from '../common/pagination.js';
import { HookRequest } from './hook.dto.js';

/** Where a delivery stands: waiting for its first attempt, in flight, waiting to retry, done, or given up. */
export const DELIVERY_STATES = ['pending', 'delivering', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** `GET …/hooks/{id}/deliveries` query: Gitea paging, plus GitHub's `per_page`. */
export class ListDeliveriesQuery extends ListQuery {
  /** GitHub's name for `limit`. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) per_page?: number;
}

/** `hooks.delivery.list`. */
export class HookDeliveryListRequest extends HookRequest {
  @IsOptional() @ValidateNested() @Type(() => ListDeliveriesQuery) query?: ListDeliveriesQuery;
}

/** `hooks.delivery.get` / `redeliver`. */
export class HookDeliveryRequest extends HookRequest {
  @IsInt() @Min(1) deliveryId: number;
}

/** A delivery as GitHub lists it (`hook-delivery-item`), plus Cairn's state and attempt count. */
export interface HookDeliveryDto {
  id: number;
  /** The delivery guid: `X-Gitea-Delivery`/`X-GitHub-Delivery`, the same on every attempt and redelivery. */
  guid: string;
  /** When the latest attempt was made (creation time while none was). */
  delivered_at: string;
  /** The latest attempt was a redelivery. */
  redelivery: boolean;
  /** Seconds the latest attempt took. */
  duration: number;
  /** `OK`, or why the latest attempt failed; `pending` before the first one. */
  status: string;
  /** HTTP status of the latest attempt (0 when there was no response). */
  status_code: number;
  /** `X-GitHub-Event` (e.g. `push`, `issues`). */
  event: string;
  /** The payload's `action`, if any. */
  action: string | null;
  installation_id: null;
  repository_id: number | null;
  throttled_at: null;
  /** Cairn: the hook. */
  hook_id: number;
  /** Cairn: `X-Gitea-Event-Type` (e.g. `issue_assign`). */
  event_type: string;
  /** Cairn: the delivery's state. */
  state: DeliveryState;
  /** Cairn: attempts made so far (all rounds). */
  attempts: number;
  /** Cairn: when the next attempt is due (pending/retrying), else null. */
  next_attempt_at: string | null;
}

/** One attempt of a delivery. */
export interface HookDeliveryAttemptDto {
  number: number;
  redelivery: boolean;
  delivered_at: string;
  duration: number;
  status: string;
  status_code: number;
  /** `delivered`, `retry` (transient failure, retried) or `failed` (final). */
  outcome: 'delivered' | 'retry' | 'failed';
  /** Why it failed without a response (connection, timeout, blocked target). */
  error: string | null;
  request: { headers: Record<string, string>; payload: unknown };
  response: { headers: Record<string, string>; payload: string | null };
}

/** A delivery with what was sent and received (GitHub's `hook-delivery`), plus every attempt. */
export interface HookDeliveryDetailDto extends HookDeliveryDto {
  url: string;
  request: { headers: Record<string, string> | null; payload: unknown };
  response: { headers: Record<string, string> | null; payload: string | null };
  attempt_log: HookDeliveryAttemptDto[];
}
