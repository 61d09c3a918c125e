import { createHash, randomBytes } from 'node:crypto';
import type { LazyRedis } from '@cairn/platform';

/** A flash message shown once on the next page (Gitea's flash). */
export interface Flash {
  kind: 'success' | 'info' | 'warning' | 'error';
  text: string;
}

/** The cookie holds only the random id; Redis this, under its hash. `pendingUserId`: password right, code pending. */
export interface WebSession {
  id: string;
  csrf: string;
  userId?: number;
  pendingUserId?: number;
  redirectTo?: string;
  flash?: Flash[];
}

export const SESSION_COOKIE = 'cairn_session';
/** Gitea's `[session] SESSION_LIFE_TIME` default: one day, renewed by every visit. */
export const SESSION_TTL_SECONDS = 86_400;
const ID_FORMAT = /^[A-Za-z0-9_-]{43}$/;

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Web sessions in Redis (`<queuePrefix>:web-session:<sha256(id)>`), sliding expiry. */
export class SessionStore {
  constructor(
    private readonly redis: LazyRedis,
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:web-session:${createHash('sha256').update(id).digest('hex')}`;
  }

  create(from: Partial<Omit<WebSession, 'id' | 'csrf'>> = {}): WebSession {
    return { ...from, id: randomToken(), csrf: randomToken() };
  }

  async load(id: string | undefined): Promise<WebSession | null> {
    if (!id || !ID_FORMAT.test(id)) return null;
    const raw = await this.redis.client.get(this.key(id));
    if (!raw) return null;
    const stored = JSON.parse(raw) as Omit<WebSession, 'id'>;
    return { ...stored, id };
  }

  async save(session: WebSession): Promise<void> {
    const { id, ...stored } = session;
    await this.redis.client.set(this.key(id), JSON.stringify(stored), 'EX', SESSION_TTL_SECONDS);
  }

  async destroy(id: string): Promise<void> {
    await this.redis.client.del(this.key(id));
  }

  /** Replaces the id (and CSRF secret) keeping the content: called at sign-in against session fixation. */
  async renew(session: WebSession): Promise<WebSession> {
    await this.destroy(session.id);
    const { id: _old, csrf: _oldCsrf, ...content } = session;
    const renewed = this.create(content);
    await this.save(renewed);
    return renewed;
  }
}
