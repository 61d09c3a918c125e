import { ABBREVIATED_OBJECT_ID_PATTERN } from './object-id.js';

/** Longest ref or revision input accepted. */
export const MAX_REF_LENGTH = 1024;

/**
 * True when `name` may be used as a ref name (branch or tag, short or `refs/…`): the rules of
 * `git check-ref-format` — no component starting with `.` or ending in `.lock`, no `..`, no control characters,
 * space, `~ ^ : ? * [ \`, no leading, trailing or doubled `/`, no trailing `.`, no `@{`, not `@` — plus no leading
 * `-`, so no input can ever be read as a git option.
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
 * True when `name` is valid after a `refs/<namespace>/` prefix (`refs/heads/<name>`, `refs/tags/<name>`): git's
 * rules, where a leading `-` is allowed (`git push origin HEAD:refs/heads/-x` creates branch `-x`). Code that uses
 * such a name always writes the full ref, so it is never read as an option. Use it for names that already exist in
 * a repository (pushed refs); names typed into the API keep the stricter {@link isValidRefName}.
 */
export function isValidRefNameAfterPrefix(name: unknown): name is string {
  return typeof name === 'string' && !name.startsWith('refs/') && isFullRefName(`refs/heads/${name}`);
}

/** True for input that can name a commit: a valid ref name or a 4–64 digit hex object id. */
export function isValidRefOrSha(input: unknown): input is string {
  return typeof input === 'string' && (ABBREVIATED_OBJECT_ID_PATTERN.test(input) || isValidRefName(input));
}

/**
 * Ref namespaces the server alone writes: a push that creates, moves or deletes a ref under one of them is refused
 * (Gitea refuses `refs/pull/*` to every pusher but itself). `refs/pull/<n>/head` follows its pull request's branch;
 * `refs/cairn/` and `refs/keep-around/` are reserved for the server. Branches (`refs/heads/`), tags (`refs/tags/`)
 * and other namespaces (e.g. `refs/notes/`) stay open to writers, as in Gitea.
 */
export const SERVER_OWNED_REF_PREFIXES: readonly string[] = ['refs/pull/', 'refs/cairn/', 'refs/keep-around/'];
