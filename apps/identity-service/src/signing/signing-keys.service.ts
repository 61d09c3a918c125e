import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SigningGpgKey, SigningKeyOwner, SigningKeysReply, SigningKeysRequest } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { ownerEmailsOfKey } from '../gpg/gpg-key.mapper.js';
import type { GpgKeyWithSubkeys } from '../gpg/gpg-keys.repository.js';
import { activatedEmails, noReplyLowerName, placeholderEmail, toUserDto } from '../users/user.mapper.js';
import type { UserRow } from '../users/users.repository.js';
import { SigningKeysRepository } from './signing-keys.repository.js';

/** Bounds of one request (the DTO refuses more; a caller bypassing validation is cut here). */
const MAX_ITEMS = 500;

/** Key counter plus a digest of what the user's addresses derive from: an address change yields a new version too. */
export function keysVersion(row: Pick<UserRow, 'keysVersion' | 'lowerEmail' | 'isActive' | 'lowerName'>): string {
  const addresses = createHash('sha256').update(`${row.lowerEmail ?? ''}\n${row.isActive}\n${row.lowerName}`).digest('hex');
  return `${row.keysVersion}.${addresses.slice(0, 16)}`;
}

function toSigningGpgKey(k: GpgKeyWithSubkeys, activated: readonly string[]): SigningGpgKey {
  return {
    id: k.id,
    keyId: k.keyId,
    subkeyIds: k.subkeys.map((s) => s.keyId),
    armored: k.armored,
    emails: ownerEmailsOfKey(k, activated),
    canSign: k.canSign || k.subkeys.some((s) => s.canSign),
    verified: k.verified,
  };
}

/** `identity.signing.keys`: committers' accounts and signing keys for commit verification, in four batched queries. */
@Injectable()
export class SigningKeysService {
  constructor(
    private readonly repo: SigningKeysRepository,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  async signingKeys(req: SigningKeysRequest): Promise<SigningKeysReply> {
    const emails = [...new Set((req.emails ?? []).slice(0, MAX_ITEMS).map((e) => e.trim().toLowerCase()))].filter(Boolean);
    const gpgKeyIds = [...new Set((req.gpgKeyIds ?? []).slice(0, MAX_ITEMS).map((k) => k.trim().toUpperCase()))].filter(Boolean);
    const noReply = new Map<string, string>(); // lower name → requested no-reply address
    for (const e of emails) {
      const name = noReplyLowerName(this.common.rootUrl, e);
      if (name) noReply.set(name, e);
    }

    const [byAddress, keyOwners] = await Promise.all([
      this.repo.usersByAddress(emails, [...noReply.keys()]),
      this.repo.gpgKeyOwners(gpgKeyIds),
    ]);
    const users = new Map(byAddress.map((u) => [u.id, u]));
    const missing = [...new Set(keyOwners.map((k) => k.userId))].filter((id) => !users.has(id));
    for (const u of await this.repo.usersById(missing)) users.set(u.id, u);

    const ids = [...users.keys()];
    const [sshKeys, gpgKeys] = await Promise.all([this.repo.verifiedSshKeys(ids), this.repo.gpgKeys(ids)]);

    const requested = new Set(emails);
    const owners = new Map<number, SigningKeyOwner>();
    for (const u of users.values()) {
      const activated = activatedEmails(u);
      const dto = toUserDto(u, { rootUrl: this.common.rootUrl, viewer: null });
      owners.set(u.id, {
        // The caller already knows the address it asked about (it came from a commit), as in `identity.user.lookup`.
        user: u.lowerEmail && requested.has(u.lowerEmail) ? { ...dto, email: u.email } : dto,
        keysVersion: keysVersion(u),
        activatedEmails: activated,
        noReplyEmail: placeholderEmail(this.common.rootUrl, u.lowerName).toLowerCase(),
        sshKeys: sshKeys.filter((k) => k.userId === u.id).map((k) => ({ id: k.id, fingerprint: k.fingerprint, content: k.content })),
        gpgKeys: gpgKeys.filter((k) => k.userId === u.id).map((k) => toSigningGpgKey(k, activated)),
      });
    }

    const byEmail: Record<string, SigningKeyOwner> = {};
    for (const u of byAddress) {
      const owner = owners.get(u.id)!;
      if (u.lowerEmail && requested.has(u.lowerEmail)) byEmail[u.lowerEmail] = owner;
      const viaNoReply = noReply.get(u.lowerName);
      if (viaNoReply) byEmail[viaNoReply] = owner;
    }
    const byGpgKeyId: Record<string, SigningKeyOwner> = {};
    for (const k of keyOwners) {
      const owner = owners.get(k.userId);
      if (owner) byGpgKeyId[k.keyId] = owner;
    }
    return { byEmail, byGpgKeyId };
  }
}
