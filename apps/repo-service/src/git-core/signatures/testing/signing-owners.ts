import type { SigningKeyOwner, SigningKeysReply, SigningKeysRequest, UserDto } from '@cairn/contracts';
import { SigningKeyDirectory } from '../signing-key-directory.js';

export function owner(
  id: number,
  login: string,
  email: string,
  keys: Partial<Pick<SigningKeyOwner, 'sshKeys' | 'gpgKeys' | 'keysVersion' | 'activatedEmails'>> = {},
): SigningKeyOwner {
  return {
    user: { id, login, email, full_name: '', username: login } as UserDto,
    keysVersion: keys.keysVersion ?? '1',
    activatedEmails: keys.activatedEmails ?? [email.toLowerCase()],
    noReplyEmail: `${login}@noreply.cairn.test`,
    sshKeys: keys.sshKeys ?? [],
    gpgKeys: keys.gpgKeys ?? [],
  };
}

/** An in-memory directory: accounts by e-mail (and their OpenPGP key ids), counting the calls. */
export class FixedSigningKeys extends SigningKeyDirectory {
  calls = 0;
  owners: SigningKeyOwner[] = [];
  /** E-mail → owner (lower case); defaults to each owner's own address. */
  emails = new Map<string, SigningKeyOwner>();

  lookup(req: SigningKeysRequest): Promise<SigningKeysReply> {
    this.calls += 1;
    const byEmail: SigningKeysReply['byEmail'] = {};
    const byGpgKeyId: SigningKeysReply['byGpgKeyId'] = {};
    for (const e of req.emails) {
      const o = this.emails.get(e.toLowerCase()) ?? this.owners.find((x) => x.user.email.toLowerCase() === e.toLowerCase());
      if (o) byEmail[e.toLowerCase()] = o;
    }
    for (const id of req.gpgKeyIds ?? []) {
      const o = this.owners.find((x) => x.gpgKeys.some((k) => k.keyId === id || k.subkeyIds.includes(id)));
      if (o) byGpgKeyId[id] = o;
    }
    return Promise.resolve({ byEmail, byGpgKeyId });
  }
}
