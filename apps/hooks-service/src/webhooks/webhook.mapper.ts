import { toApiTime } from '@cairn/contracts';
import type { HookDto } from '@cairn/contracts';
import type { SecretBox } from '@cairn/platform';
import { eventsForDto } from './hook-events.js';
import { maskCredential, maskUrlCredentials } from '../common/header-mask.js';
import type { WebhookRow } from './webhooks.repository.js';

export function hookMeta(row: { meta: unknown }): Record<string, string> {
  const m = row.meta;
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, string>) : {};
}

/** A sealed value in clear text; empty when it cannot be opened (e.g. after `[security] SECRET_KEY` changed). */
export function openOrEmpty(box: SecretBox, sealed: string | null): string {
  try {
    return box.openOptional(sealed);
  } catch {
    return '';
  }
}

/** Gitea's `Hook` JSON: never the secret; unlike Gitea, authorization header and URL credentials masked. */
export function toHookDto(row: WebhookRow, box: SecretBox): HookDto {
  const admin = row.repoId === 0 && row.ownerId === 0;
  const config: Record<string, string> = { url: maskUrlCredentials(row.url), content_type: row.contentType, ...hookMeta(row) };
  if (admin) config.is_system_webhook = String(row.isSystemWebhook);
  const authorization = openOrEmpty(box, row.authorizationSealed);
  return {
    id: row.id,
    type: row.type,
    branch_filter: row.branchFilter,
    config,
    events: eventsForDto(row),
    authorization_header: authorization && maskCredential(authorization),
    active: row.isActive,
    is_system_webhook: row.isSystemWebhook,
    updated_at: toApiTime(row.updatedAt),
    created_at: toApiTime(row.createdAt),
  };
}
