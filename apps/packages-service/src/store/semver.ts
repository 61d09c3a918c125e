// Semantic versions (SemVer 2.0.0): one home for parsing and precedence.

/** A parsed semantic version (SemVer 2.0.0): the parts precedence depends on (build metadata does not count). */
export interface SemanticVersion {
  core: [bigint, bigint, bigint];
  prerelease: (bigint | string)[];
}

// SemVer 2.0.0's grammar: numbers without leading zeros, dot-separated pre-release and build identifiers. A leading
// `v` is accepted, as npm and Go tags write versions.
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

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

/** SemVer 2.0.0 precedence: negative when `a` ranks below `b`. */
export function compareSemver(a: SemanticVersion, b: SemanticVersion): number {
  for (let i = 0; i < 3; i++) {
    const c = compareIdentifiers(a.core[i], b.core[i]);
    if (c) return c;
  }
  // A pre-release ranks below its release.
  if (!a.prerelease.length || !b.prerelease.length) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.min(a.prerelease.length, b.prerelease.length); i++) {
    const c = compareIdentifiers(a.prerelease[i], b.prerelease[i]);
    if (c) return c;
  }
  return a.prerelease.length - b.prerelease.length;
}
