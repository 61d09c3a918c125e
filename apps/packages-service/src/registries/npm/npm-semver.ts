/**
 * Semantic versions (semver.org 2.0.0): the order of a packument's versions. The same interface as the packages
 * API's `version-order.ts` (h/pkg-api), so one of the two can serve both once they meet; npm's stricter rule for a
 * published version (no leading `v`, at most 256 characters) lives in `npmVersion`.
 */
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$/;

/** The parts precedence depends on (build metadata does not count). */
export interface SemanticVersion {
  core: [bigint, bigint, bigint];
  prerelease: (bigint | string)[];
}

/** The parsed version, or null when `version` is no semantic version. */
export function parseSemver(version: string): SemanticVersion | null {
  const m = SEMVER.exec(version);
  if (!m) return null;
  return {
    core: [BigInt(m[1]), BigInt(m[2]), BigInt(m[3])],
    prerelease: m[4] ? m[4].split('.').map((id) => (/^\d+$/.test(id) ? BigInt(id) : id)) : [],
  };
}

function compareIdentifiers(a: bigint | string, b: bigint | string): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint') return -1; // numeric identifiers rank below alphanumeric ones
  if (typeof b === 'bigint') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** semver.org §11 precedence; negative when `a` comes first. */
export function compareSemver(a: SemanticVersion, b: SemanticVersion): number {
  for (let i = 0; i < 3; i++) {
    const c = compareIdentifiers(a.core[i], b.core[i]);
    if (c) return c;
  }
  if (!a.prerelease.length || !b.prerelease.length) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.min(a.prerelease.length, b.prerelease.length); i++) {
    const c = compareIdentifiers(a.prerelease[i], b.prerelease[i]);
    if (c) return c;
  }
  return a.prerelease.length - b.prerelease.length;
}
