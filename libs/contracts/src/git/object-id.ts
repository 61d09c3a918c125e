/**
 * Object ids (the one home of these rules). Cairn stores SHA-1 repositories and reads SHA-256 ones, so every rule
 * accepts both lengths: 40 hex digits (SHA-1) and 64 (SHA-256), lower-case as git prints them.
 */

/** A full object id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits. */
export const OBJECT_ID_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A full or abbreviated object id as a user may type it: 4 to 64 hex digits, either case. */
export const ABBREVIATED_OBJECT_ID_PATTERN = /^[0-9a-fA-F]{4,64}$/;

/** True for a full object id of either hash ({@link OBJECT_ID_PATTERN}). */
export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}

/** The SHA-1 all-zero id, the "no object" of ref updates in SHA-1 repositories (and of Gitea's payloads). */
export const ZERO_SHA = '0'.repeat(40);

/**
 * The all-zero id of the same hash as `like` (an object id, or a length): git marks a created ref with a zero old
 * id and a deleted ref with a zero new id, of the repository's hash length.
 */
export function zeroIdLike(like: string | number): string {
  const length = typeof like === 'number' ? like : like.length;
  return '0'.repeat(length === 64 ? 64 : 40);
}

/** True for the all-zero id of either hash (a created or deleted ref's missing side). */
export function isZeroId(value: unknown): boolean {
  return value === ZERO_SHA || value === '0'.repeat(64);
}
