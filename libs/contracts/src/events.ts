/**
 * Durable domain events on JetStream. Subjects are `<service>.evt.<resource>.<past-participle>`; a breaking payload
 * change gets a `.v2` suffix. All of them are captured by the one stream {@link EVENTS_STREAM}.
 */

/** The JetStream stream that captures every domain event. Never renamed once shipped. */
export const EVENTS_STREAM = 'CAIRN_EVENTS';
/** The subjects {@link EVENTS_STREAM} captures. */
export const EVENTS_STREAM_SUBJECTS = ['*.evt.>'];

/** Events published by identity-service. */
export const IdentityEvents = {
  /** A user was created. */
  userCreated: 'identity.evt.user.created',
  /**
   * A user or an organization was deleted ({@link AccountDeletedData}): one event for "an owner is gone", as Gitea
   * treats organizations as users, so every consumer keyed by owner id cleans up after both.
   */
  userDeleted: 'identity.evt.user.deleted',
  /** An access token was deleted: gateways drop anything they cached for it. */
  tokenRevoked: 'identity.evt.token.revoked',
  /** An organization was created. */
  orgCreated: 'identity.evt.org.created',
  /** A user joined an organization (through a team). */
  memberAdded: 'identity.evt.member.added',
  /** A user left an organization. */
  memberRemoved: 'identity.evt.member.removed',
} as const;

/** The payload of {@link IdentityEvents.userCreated}. */
export interface UserCreatedData {
  id: number;
  login: string;
}

/** The payload of {@link IdentityEvents.tokenRevoked}. */
export interface TokenRevokedData {
  tokenId: number;
  userId: number;
}

/** The payload of {@link IdentityEvents.orgCreated}. */
export interface OrgCreatedData {
  id: number;
  name: string;
  visibility: string;
  /** The user who created it (the first member of its Owners team). */
  ownerId: number;
}

/** The payload of {@link IdentityEvents.memberAdded} / {@link IdentityEvents.memberRemoved}. */
export interface OrgMemberEventData {
  orgId: number;
  /** The organization's name; absent when the member left because their own account was deleted. */
  org?: string;
  userId: number;
  login: string;
}

/** The payload of {@link IdentityEvents.userDeleted}. */
export interface AccountDeletedData {
  /** The account's id: the owner id of everything it owned in other services. */
  id: number;
  login: string;
  kind: 'user' | 'organization';
}

/**
 * The largest domain event, in bytes of its JSON (UTF-8): the one home of the limit. NATS refuses messages over its
 * `max_payload` (1 MiB by default), and an event that cannot be published must never be written: `outboxRow` throws
 * for a larger one. The margin leaves room for headers and the namespace prefix of the subject.
 */
export const EVENT_MAX_BYTES = 900 * 1024;

/**
 * The longest text one event field carries, in bytes of its JSON encoding (escapes counted): issue, comment and
 * pull-request bodies, their `changes.body.from`, commit messages. Longer texts are cut (ending in
 * {@link EVENT_TEXT_CUT_MARK}), so an event with a few bodies stays far below {@link EVENT_MAX_BYTES}; webhook
 * payloads carry the cut text (the full text is one API call away at the item's URL).
 */
export const EVENT_TEXT_MAX_BYTES = 64 * 1024;

/** Appended to a text cut to {@link EVENT_TEXT_MAX_BYTES}. */
export const EVENT_TEXT_CUT_MARK = '\n\n… (cut)';

/** The envelope of every domain event: `id` is unique and lets consumers de-duplicate. */
export interface DomainEvent<T = unknown> {
  /** Unique event id (UUID); consumers de-duplicate on it. */
  id: string;
  type: string;
  /** When the change was committed (RFC 3339). */
  occurredAt: string;
  data: T;
}

const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * The account an `identity.evt.user.deleted` event removed, or null for any other event or a malformed id (a
 * consumer must never act on "every owner"). The one reading of that event for every service that cleans up.
 */
export function deletedAccountOf(event: DomainEvent): AccountDeletedData | null {
  if (event.type !== IdentityEvents.userDeleted) return null;
  const data = event.data as Partial<AccountDeletedData> | null;
  if (!data || !isPositiveInt(data.id)) return null;
  return { id: data.id, login: String(data.login ?? ''), kind: data.kind === 'organization' ? 'organization' : 'user' };
}
