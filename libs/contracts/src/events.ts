/** Subjects are `<service>.evt.<resource>.<past-participle>`; a breaking payload change gets a `.v2` suffix. */

/** Never renamed once shipped. */
export const EVENTS_STREAM = 'CAIRN_EVENTS';
export const EVENTS_STREAM_SUBJECTS = ['*.evt.>'];

/** Published by identity-service. */
export const IdentityEvents = {
  /** A user was created. */
  userCreated: 'identity.evt.user.created',
  /** A user or an organization was deleted: one event, as Gitea treats organizations as users. */
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

export interface UserCreatedData {
  id: number;
  login: string;
}

export interface TokenRevokedData {
  tokenId: number;
  userId: number;
}

export interface OrgCreatedData {
  id: number;
  name: string;
  visibility: string;
  /** The first member of its Owners team. */
  ownerId: number;
}

export interface OrgMemberEventData {
  orgId: number;
  /** Absent when the member left because their own account was deleted. */
  org?: string;
  userId: number;
  login: string;
}

export interface AccountDeletedData {
  id: number;
  login: string;
  kind: 'user' | 'organization';
}

/** The one home of the limit: NATS refuses messages over `max_payload` (1 MiB by default); `outboxRow` throws above it. */
export const EVENT_MAX_BYTES = 900 * 1024;

/** Longer event texts (bodies, commit messages) are cut so an event with a few stays far below {@link EVENT_MAX_BYTES}. */
export const EVENT_TEXT_MAX_BYTES = 64 * 1024;

export const EVENT_TEXT_CUT_MARK = '\n\n… (cut)';

export interface DomainEvent<T = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  data: T;
}

const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Null for a malformed id too: a consumer must never act on "every owner". */
export function deletedAccountOf(event: DomainEvent): AccountDeletedData | null {
  if (event.type !== IdentityEvents.userDeleted) return null;
  const data = event.data as Partial<AccountDeletedData> | null;
  if (!data || !isPositiveInt(data.id)) return null;
  return { id: data.id, login: String(data.login ?? ''), kind: data.kind === 'organization' ? 'organization' : 'user' };
}
