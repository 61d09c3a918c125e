/** Cairn stores SHA-1 repositories and reads SHA-256 ones, so every rule accepts both lengths. */

export const OBJECT_ID_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export const ABBREVIATED_OBJECT_ID_PATTERN = /^[0-9a-fA-F]{4,64}$/;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}

/** The "no object" of ref updates in SHA-1 repositories (and of Gitea's payloads). */
export const ZERO_SHA = '0'.repeat(40);

/** Git marks a created ref with a zero old id and a deleted ref with a zero new id, of the repository's hash length. */
export function zeroIdLike(like: string | number): string {
  const length = typeof like === 'number' ? like : like.length;
  return '0'.repeat(length === 64 ? 64 : 40);
}

export function isZeroId(value: unknown): boolean {
  return value === ZERO_SHA || value === '0'.repeat(64);
}
