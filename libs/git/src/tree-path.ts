/** git's own limit is PATH_MAX-ish; longer input is not a path of any repository. */
export const MAX_TREE_PATH_LENGTH = 4096;

/**
 * Tree paths are never joined into a filesystem path: refusing empty, `.`, `..` and `.git` segments and control
 * characters keeps "not found" predictable and cat-file's one-line protocol intact. The root (`''`) passes; callers
 * needing a file refuse it.
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

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Gitea's `PathEscapeSegments`. */
export function escapePathSegments(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}
