import { Injectable } from '@nestjs/common';
import { IdentitySubjects, type UserDto } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';

/** Finds the users owning commit e-mail addresses (Gitea's `GetUserByEmail`, batched). */
export abstract class CommitUserDirectory {
  /** Lower-cased e-mail → user, for the addresses that belong to someone. */
  abstract byEmails(emails: string[]): Promise<Map<string, UserDto>>;
}

/** The directory backed by identity-service: one `identity.user.lookup` call for all e-mails of a page. */
@Injectable()
export class RpcCommitUserDirectory extends CommitUserDirectory {
  constructor(private readonly rpc: RpcClient) {
    super();
  }

  async byEmails(emails: string[]): Promise<Map<string, UserDto>> {
    const unique = [...new Set(emails.map((e) => e.toLowerCase()).filter((e) => e.includes('@')))];
    const out = new Map<string, UserDto>();
    if (unique.length === 0) return out;
    const reply = await this.rpc.send(IdentitySubjects.userLookup, { emails: unique });
    const byId = new Map(reply.users.map((u) => [u.id, u]));
    for (const [email, id] of Object.entries(reply.byEmail ?? {})) {
      const user = byId.get(id);
      if (user) out.set(email.toLowerCase(), user);
    }
    return out;
  }
}
