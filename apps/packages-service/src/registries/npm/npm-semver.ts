/**
 * Semantic versions as npm publishes them (semver.org 2.0.0, no leading `v`, no loose forms): the version key of
 * a packument and the order of its versions.
 */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** npm's own limit on a version string. */
export const NPM_VERSION_MAX_LENGTH = 256;

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: (string | number)[];
}

/** The parsed version, or null when `text` is no strict semantic version. */
export function parseSemver(text: string): SemVer | null {
  if (text.length > NPM_VERSION_MAX_LENGTH) return null;
  const m = SEMVER.exec(text);
  if (!m) return null;
  const numbers = [m[1], m[2], m[3]].map(Number);
  if (numbers.some((n) => !Number.isSafeInteger(n))) return null;
  const prerelease = m[4] ? m[4].split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { major: numbers[0], minor: numbers[1], patch: numbers[2], prerelease };
}

/** semver.org §11 precedence (build metadata ignored); negative when `a` comes first. */
export function compareSemver(a: SemVer, b: SemVer): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core !== 0) return Math.sign(core);
  if (!a.prerelease.length || !b.prerelease.length) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return Math.sign(x - y);
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
