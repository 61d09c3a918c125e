import { DomainError } from '@cairn/contracts';
import { parseSemver } from '../../store/semver.js';

const VERSION_MAX_LENGTH = 256;

/** npm's package name rule as Gitea applies it: lower case, an optional `@scope/`, at most 214 characters. */
const PACKAGE_NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;
const PACKAGE_NAME_MAX_LENGTH = 214;
/** A version-shaped tag (Gitea refuses any tag that parses as a version: `1.0`, `v1.0`, `2`). */
const VERSION_LIKE = /^v?\d+(\.\d+)*(-?[0-9A-Za-z~-]+(\.[0-9A-Za-z~-]+)*)?(\+[0-9A-Za-z~-]+(\.[0-9A-Za-z~-]+)*)?$/;
const TAG_MAX_LENGTH = 256;

export interface NpmPackageName {
  /** `@scope/name` or `name`. */
  full: string;
  scope: string;
  bare: string;
}

export function npmPackageName(name: string): NpmPackageName {
  if (!name || name.length > PACKAGE_NAME_MAX_LENGTH || !PACKAGE_NAME.test(name)) {
    throw DomainError.invalid(
      `package name is invalid: "${printable(name)}" (lower-case letters, digits, "-", "." and "_", at most ` +
        `${PACKAGE_NAME_MAX_LENGTH} characters, optionally prefixed by "@scope/")`,
    );
  }
  const slash = name.indexOf('/');
  return slash < 0
    ? { full: name, scope: '', bare: name }
    : { full: name, scope: name.slice(0, slash), bare: name.slice(slash + 1) };
}

/** npm asks for scoped packages as `@scope%2fname` (one segment), other clients as `@scope/name`. */
export function npmPackageNameFromPath(segments: string[]): NpmPackageName {
  return npmPackageName(segments.join('/'));
}

/** Checks a version as npm publishes it (strict semver, no leading `v`); a 400 otherwise. */
export function npmVersion(version: unknown): string {
  if (typeof version !== 'string' || version.length > VERSION_MAX_LENGTH || version.startsWith('v') || !parseSemver(version)) {
    throw DomainError.invalid(`package version is invalid: "${printable(String(version))}" is no semantic version`);
  }
  return version;
}

/** The stored file name of a version's tarball, as Gitea names it: `<name without scope>-<version>.tgz`, lower case. */
export function npmTarballFilename(name: NpmPackageName, version: string): string {
  return `${name.bare}-${version}.tgz`.toLowerCase();
}

/** Checks a dist-tag: not empty, URL-safe, and nothing that reads as a version (npm would take it for a range). */
export function npmDistTag(tag: string): string {
  if (!tag || tag.length > TAG_MAX_LENGTH || encodeURIComponent(tag) !== tag || VERSION_LIKE.test(tag)) {
    throw DomainError.invalid(
      `The tag name is invalid: "${printable(tag)}" (it must not be empty, must be URL-safe and must not look like a version)`,
    );
  }
  return tag;
}

function printable(text: string): string {
  const cut = text.length > 100 ? `${text.slice(0, 100)}…` : text;
  // eslint-disable-next-line no-control-regex
  return cut.replace(/[\u0000-\u001f\u007f]/g, '?');
}
