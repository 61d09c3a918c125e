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
  /** A user was deleted. */
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

/** The envelope of every domain event: `id` is unique and lets consumers de-duplicate. */
export interface DomainEvent<T = unknown> {
  /** Unique event id (UUID); consumers de-duplicate on it. */
  id: string;
  /** The event subject. */
  type: string;
  /** When the change was committed (RFC 3339). */
  occurredAt: string;
  /** The event body. */
  data: T;
}
