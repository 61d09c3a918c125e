import { ABBREVIATED_OBJECT_ID_PATTERN } from './object-id.js';

export const MAX_REF_LENGTH = 1024;

/** `git check-ref-format`'s rules plus no leading `-`, so no input can be read as a git option. */
export function isValidRefName(name: unknown): name is string {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_REF_LENGTH) return false;
  if (name === '@' || name.startsWith('-')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return false;
  if (name.endsWith('.') || name.includes('..') || name.includes('@{')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  for (const component of name.split('/')) {
    if (component.startsWith('.') || component.endsWith('.lock')) return false;
  }
  return true;
}

export function isFullRefName(name: unknown): name is string {
  return typeof name === 'string' && name.startsWith('refs/') && isValidRefName(name);
}

/** Git allows a leading `-` after `refs/<namespace>/`: only for names already stored, always used as the full ref. */
export function isValidRefNameAfterPrefix(name: unknown): name is string {
  return typeof name === 'string' && !name.startsWith('refs/') && isFullRefName(`refs/heads/${name}`);
}

export function isValidRefOrSha(input: unknown): input is string {
  return typeof input === 'string' && (ABBREVIATED_OBJECT_ID_PATTERN.test(input) || isValidRefName(input));
}

/** Gitea refuses `refs/pull/*` to every pusher but itself. */
export const SERVER_OWNED_REF_PREFIXES: readonly string[] = ['refs/pull/', 'refs/cairn/', 'refs/keep-around/'];
