/** Longest tree path accepted (git's own limit is PATH_MAX-ish; longer input is not a path of any repository). */
export const MAX_TREE_PATH_LENGTH = 4096;

/**
 * Checks a user-supplied path inside a repository tree and returns it unchanged, or null when it must not be looked
 * up: empty segments (leading, trailing or doubled `/`, so no absolute paths), `.` and `..` segments (traversal),
 * any segment that is `.git` in any case, NUL and other control characters, over-long input. Paths are only ever
 * used as tree paths inside git objects — never joined into a filesystem path — so this is about answering
 * "not found" predictably (and keeping `cat-file`'s one-line protocol intact), not about the filesystem.
 * The empty string (the root directory) is returned as is; callers that need a file refuse it themselves.
 */
export function sanitizeTreePath(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  if (raw === '') return '';
  if (raw.length > MAX_TREE_PATH_LENGTH) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) return null;
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return null;
    if (segment.toLowerCase() === '.git') return null;
  }
  return raw;
}

/** The directory part of a sanitised tree path (`''` for entries of the root). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** The last segment of a tree path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Percent-encodes each segment of a tree path for a URL, keeping the slashes (Gitea's `PathEscapeSegments`). */
export function escapePathSegments(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}
