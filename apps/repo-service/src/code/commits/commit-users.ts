import { Injectable } from '@nestjs/common';
import { IdentitySubjects, type UserDto } from '@cairn/contracts';
import { LruCache, RpcClient } from '@cairn/platform';

/** Finds the users owning commit e-mail addresses (Gitea's `GetUserByEmail`, batched). */
export abstract class CommitUserDirectory {
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

/** How long a commit e-mail's login is reused: a renamed user or a newly added address shows after this at most. */
export const COMMIT_LOGIN_MAX_AGE_MS = 10_000;

/** Logins only (never whole users), briefly: a tree page viewed again needs no identity call for its authors. */
export class RecentCommitLogins {
  private readonly known: LruCache<{ login: string | null; at: number }>;

  constructor(
    private readonly directory: CommitUserDirectory,
    readonly maxAgeMs = COMMIT_LOGIN_MAX_AGE_MS,
    maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.known = new LruCache(maxEntries);
  }

  async logins(emails: string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    const ask: string[] = [];
    const now = this.now();
    for (const email of new Set(emails.map((e) => e.toLowerCase()))) {
      const hit = this.known.get(email);
      if (hit && now - hit.at < this.maxAgeMs) out.set(email, hit.login);
      else ask.push(email);
    }
    if (ask.length === 0) return out;
    const users = await this.directory.byEmails(ask);
    for (const email of ask) {
      const login = users.get(email)?.login ?? null;
      this.known.set(email, { login, at: now });
      out.set(email, login);
    }
    return out;
  }
}
