import { EPOCH_TIME, toApiTime } from '@cairn/contracts';
import type { GpgKeyDto } from '@cairn/contracts';
import type { GpgKey } from '../generated/prisma/client.js';
import type { GpgKeyWithSubkeys } from './gpg-keys.repository.js';

/** Gitea lists only the key's uid e-mails that are its owner's activated addresses; computed on read. */
export function ownerEmailsOfKey(key: Pick<GpgKey, 'uidEmails'>, activated: readonly string[]): string[] {
  return key.uidEmails.filter((e) => activated.includes(e));
}

function base(row: GpgKey, primaryKeyId: string): GpgKeyDto {
  return {
    id: row.id,
    primary_key_id: primaryKeyId,
    key_id: row.keyId,
    public_key: row.publicKey,
    emails: [],
    subkeys: [],
    can_sign: row.canSign,
    can_encrypt_comms: row.canEncryptComms,
    can_encrypt_storage: row.canEncryptStorage,
    can_certify: row.canCertify,
    verified: row.verified,
    created_at: toApiTime(row.createdAt),
    expires_at: row.expiresAt ? toApiTime(row.expiresAt) : EPOCH_TIME,
  };
}

/** Gitea's `GPGKey` JSON; `activated` are the owner's activated e-mail addresses. */
export function toGpgKeyDto(row: GpgKeyWithSubkeys, activated: readonly string[]): GpgKeyDto {
  return {
    ...base(row, ''),
    emails: ownerEmailsOfKey(row, activated).map((email) => ({ email, verified: true })),
    subkeys: row.subkeys.map((s) => base(s, row.keyId)),
  };
}
