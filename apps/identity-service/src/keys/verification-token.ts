import { createHash } from 'node:crypto';
import type { UserRow } from '../users/users.repository.js';

const WINDOW_MS = 60_000;

/** Gitea's key verification token: names the next one-minute window, and the previous one is accepted too. */
export function verificationToken(user: Pick<UserRow, 'id' | 'name' | 'email' | 'createdAt'>, now: Date, windowsAhead: 0 | 1): string {
  const window = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS + windowsAhead * WINDOW_MS;
  const material = [new Date(window).toISOString(), user.createdAt.toISOString(), user.name, user.email, String(user.id)].join(':');
  return createHash('sha256').update(material).digest('hex');
}

export function acceptedVerificationTokens(user: Pick<UserRow, 'id' | 'name' | 'email' | 'createdAt'>, now: Date): [string, string] {
  return [verificationToken(user, now, 1), verificationToken(user, now, 0)];
}

/** Each token as is or with the line end a signing tool added (the variants Gitea accepts for GPG and SSH keys). */
export function tokenVariants(tokens: string[]): string[] {
  return tokens.flatMap((t) => [t, `${t}\n`, `${t}\r\n`, `${t}\n\n`]);
}
