import { toApiTime } from '@cairn/contracts';
import type { DeployKeyDto } from '@cairn/contracts';
import type { DeployKeyRow } from './deploy-keys.repository.js';

/** Gitea's `DeployKey` (without the owner-only `read_only` and `repository`, which the service adds). */
export function toDeployKeyDto(row: DeployKeyRow, keysUrl: string): DeployKeyDto {
  return {
    id: row.id,
    key_id: row.id,
    key: row.content,
    url: `${keysUrl}${row.id}`,
    title: row.name,
    fingerprint: row.fingerprint,
    created_at: toApiTime(row.createdAt),
  };
}
