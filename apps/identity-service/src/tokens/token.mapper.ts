import { toApiTime } from '@cairn/contracts';
import type { AccessTokenDto } from '@cairn/contracts';
import type { TokenRow } from './tokens.repository.js';

/** Gitea's `AccessToken`; `sha1` carries the secret only in the creation reply. */
export function toAccessTokenDto(row: TokenRow, secret = ''): AccessTokenDto {
  return {
    id: row.id,
    name: row.name,
    sha1: secret,
    token_last_eight: row.tokenLastEight,
    scopes: row.scopes,
    created_at: toApiTime(row.createdAt),
    last_used_at: row.lastUsedAt ? toApiTime(row.lastUsedAt) : null,
  };
}
