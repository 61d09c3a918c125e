/** Gitea's name rules; the reserved words would shadow routes. */
export const USERNAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_]|[-.](?=[A-Za-z0-9_]))*$/;
export const USERNAME_MAX_LENGTH = 40;

export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  '.', '..', '-', 'admin', 'api', 'assets', 'attachments', 'avatar', 'avatars', 'captcha', 'commits', 'debug',
  'error', 'explore', 'favicon.ico', 'ghost', 'healthz', 'help', 'install', 'issues', 'less', 'login', 'manifest.json',
  'metrics', 'milestones', 'new', 'notifications', 'org', 'pulls', 'raw', 'readyz', 'repo', 'robots.txt', 'search',
  'serviceworker.js', 'ssh_info', 'swagger.v1.json', 'user', 'v2', 'gitea-actions', 'swagger',
]);

export function invalidNameReason(name: string): string | null {
  if (name.length === 0) return 'name is empty';
  if (name.length > USERNAME_MAX_LENGTH) return `name is longer than ${USERNAME_MAX_LENGTH} characters`;
  if (!USERNAME_PATTERN.test(name)) {
    return 'name may contain only alphanumerics, dashes, underscores and dots, and may not start or end with a dash or dot';
  }
  if (RESERVED_NAMES.has(name.toLowerCase())) return `name "${name}" is reserved`;
  return null;
}
