/**
 * Name rules shared by users, organizations and (later) repositories, as Gitea applies them: alphanumerics, `-`, `_`
 * and `.`, not starting or ending with `-`/`.`, no consecutive special characters, at most 40 characters, and not a
 * reserved word (names that would shadow routes).
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_]|[-.](?=[A-Za-z0-9_]))*$/;
export const USERNAME_MAX_LENGTH = 40;

/** Names that would collide with top-level routes (Gitea's reserved user names, the ones that matter here). */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  '.', '..', '-', 'admin', 'api', 'assets', 'attachments', 'avatar', 'avatars', 'captcha', 'commits', 'debug',
  'error', 'explore', 'favicon.ico', 'ghost', 'healthz', 'help', 'install', 'issues', 'less', 'login', 'manifest.json',
  'metrics', 'milestones', 'new', 'notifications', 'org', 'pulls', 'raw', 'readyz', 'repo', 'robots.txt', 'search',
  'serviceworker.js', 'ssh_info', 'swagger.v1.json', 'user', 'v2', 'gitea-actions', 'swagger',
]);

/** Why a user/org name is invalid, or null when it is fine. */
export function invalidNameReason(name: string): string | null {
  if (name.length === 0) return 'name is empty';
  if (name.length > USERNAME_MAX_LENGTH) return `name is longer than ${USERNAME_MAX_LENGTH} characters`;
  if (!USERNAME_PATTERN.test(name)) {
    return 'name may contain only alphanumerics, dashes, underscores and dots, and may not start or end with a dash or dot';
  }
  if (RESERVED_NAMES.has(name.toLowerCase())) return `name "${name}" is reserved`;
  return null;
}
