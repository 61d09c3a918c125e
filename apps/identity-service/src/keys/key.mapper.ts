import { toApiTime } from '@cairn/contracts';
import type { ActorDto, PublicKeyDto } from '@cairn/contracts';
import { toUserDto } from '../users/user.mapper.js';
import type { KeyWithUser } from './keys.repository.js';

/** Gitea's `PublicKey`; `user`, `read_only` and `key_type` only for the key's owner or a site admin. */
export function toPublicKeyDto(row: KeyWithUser, rootUrl: string, viewer: ActorDto | null): PublicKeyDto {
  const dto: PublicKeyDto = {
    id: row.id,
    key: row.content,
    url: `${rootUrl}api/v1/user/keys/${row.id}`,
    title: row.title,
    fingerprint: row.fingerprint,
    created_at: toApiTime(row.createdAt),
    last_used_at: row.lastUsedAt ? toApiTime(row.lastUsedAt) : null,
    verified: row.verified,
  };
  if (viewer && (viewer.isAdmin || viewer.id === row.userId)) {
    dto.user = toUserDto(row.user, { rootUrl, viewer });
    dto.read_only = false;
    dto.key_type = 'user';
  }
  return dto;
}
