import { ABBREVIATED_OBJECT_ID_PATTERN } from './object-id.js';

/** Longest ref or revision input accepted. */
export const MAX_REF_LENGTH = 1024;

/**
 * `git check-ref-format`'s rules for a branch or tag name (short or `refs/…`), plus no leading `-`, so no input
 * can be read as a git option.
 */
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

/** True for a full ref name (`refs/…`) that {@link isValidRefName} accepts, as git reports them (e.g. in a push). */
export function isFullRefName(name: unknown): name is string {
  return typeof name === 'string' && name.startsWith('refs/') && isValidRefName(name);
}

/**
 * `name` is valid after `refs/<namespace>/`, where git allows a leading `-`: for names already in a repository,
 * always used as the full ref so never read as an option. Names typed into the API use {@link isValidRefName}.
 */
export function isValidRefNameAfterPrefix(name: unknown): name is string {
  return typeof name === 'string' && !name.startsWith('refs/') && isFullRefName(`refs/heads/${name}`);
}

/** True for input that can name a commit: a valid ref name or a 4–64 digit hex object id. */
export function isValidRefOrSha(input: unknown): input is string {
  return typeof input === 'string' && (ABBREVIATED_OBJECT_ID_PATTERN.test(input) || isValidRefName(input));
}

/**
 * Ref namespaces only the server writes (Gitea refuses `refs/pull/*` to every pusher but itself); pushes to them
 * are refused.
 */
export const SERVER_OWNED_REF_PREFIXES: readonly string[] = ['refs/pull/', 'refs/cairn/', 'refs/keep-around/'];
