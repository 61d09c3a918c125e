// Gitea's generic-registry name rules (`routers/api/packages/generic`); Cairn adds a length bound and refuses control
// characters and path separators everywhere.
const PACKAGE_NAME = /^[-_+.A-Za-z0-9]+$/;
const FILE_NAME = /^[-_+=:;.()[\]{}~!@#$%^& A-Za-z0-9]+$/;
/** Longest name, version or file name accepted (the database and file systems are never the limit). */
export const MAX_NAME_LENGTH = 255;

export function genericPackageNameError(name: string): string | null {
  if (!name || name.length > MAX_NAME_LENGTH) return `invalid package name: 1 to ${MAX_NAME_LENGTH} characters`;
  if (!PACKAGE_NAME.test(name) || name === '..' || (name.length === 1 && !/[A-Za-z0-9]/.test(name))) {
    return 'invalid package name: letters, digits and - _ + . only';
  }
  return null;
}

export function genericFileNameError(name: string): string | null {
  if (!name || name.length > MAX_NAME_LENGTH) return `invalid filename: 1 to ${MAX_NAME_LENGTH} characters`;
  if (!FILE_NAME.test(name) || name.trim() !== name || name === '.' || name === '..') return 'invalid filename';
  return null;
}

export function genericVersionError(version: string): string | null {
  if (!version || version.length > MAX_NAME_LENGTH) return `invalid package version: 1 to ${MAX_NAME_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (version.trim() !== version || /[\u0000-\u001f\u007f/\\]/.test(version)) return 'invalid package version';
  return null;
}
