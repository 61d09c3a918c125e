import { toApiTime } from '@cairn/contracts';
import type {
  DeliveryState, HookDeliveryAttemptDto, HookDeliveryDetailDto, HookDeliveryDto,
} from '@cairn/contracts';
import type { AttemptRow, DeliveryRow } from './deliveries.repository.js';
import { judge } from './outcome.js';
import { maskUrlCredentials } from '../common/header-mask.js';

function statusText(row: { lastStatusCode: number | null; lastError: string | null; attempts: number }): string {
  if (row.attempts === 0) return 'pending';
  return judge({
    status: row.lastStatusCode ?? undefined,
    error: row.lastError ?? undefined,
    durationMs: 0,
  }).status;
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const form = /^payload=/.test(text) ? new URLSearchParams(text).get('payload') : null;
    if (form !== null) {
      try {
        return JSON.parse(form);
      } catch {
        return form;
      }
    }
    return text;
  }
}

/** GitHub's delivery item, plus Cairn's state. */
export function toDeliveryDto(row: DeliveryRow): HookDeliveryDto {
  const waiting = row.status === 'pending' || row.status === 'retrying';
  return {
    id: row.id,
    guid: row.guid,
    delivered_at: toApiTime(row.lastAttemptAt ?? row.createdAt),
    redelivery: row.redelivery,
    duration: (row.lastDurationMs ?? 0) / 1000,
    status: statusText(row),
    status_code: row.lastStatusCode ?? 0,
    event: row.event,
    action: row.action,
    installation_id: null,
    repository_id: row.repoId || null,
    throttled_at: null,
    hook_id: row.hookId,
    event_type: row.eventType,
    state: row.status as DeliveryState,
    attempts: row.attempts,
    next_attempt_at: waiting ? toApiTime(row.nextAttemptAt) : null,
  };
}

function toAttemptDto(a: AttemptRow): HookDeliveryAttemptDto {
  return {
    number: a.number,
    redelivery: a.redelivery,
    delivered_at: toApiTime(a.startedAt),
    duration: a.durationMs / 1000,
    status: judge({ status: a.responseStatus ?? undefined, error: a.error ?? undefined, durationMs: 0 }).status,
    status_code: a.responseStatus ?? 0,
    outcome: a.outcome as HookDeliveryAttemptDto['outcome'],
    error: a.error,
    request: { headers: a.requestHeaders as Record<string, string>, payload: parsePayload(a.requestBody) },
    response: { headers: (a.responseHeaders as Record<string, string> | null) ?? {}, payload: a.responseBody },
  };
}

/** GitHub's delivery (request and response of the latest attempt), plus every attempt. */
export function toDeliveryDetailDto(row: DeliveryRow & { attemptLog: AttemptRow[] }, hookUrl: string): HookDeliveryDetailDto {
  const last = row.attemptLog[row.attemptLog.length - 1];
  return {
    ...toDeliveryDto(row),
    url: maskUrlCredentials(last?.url ?? hookUrl),
    request: { headers: last ? (last.requestHeaders as Record<string, string>) : null, payload: parsePayload(row.payload) },
    response: { headers: (last?.responseHeaders as Record<string, string> | null) ?? null, payload: last?.responseBody ?? null },
    attempt_log: row.attemptLog.map(toAttemptDto),
  };
}
