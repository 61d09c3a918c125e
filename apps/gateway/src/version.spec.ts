import { describe, expect, it } from 'vitest';
import { CAIRN_VERSION } from './version.js';

/** SemVer 2.0.0's grammar (semver.org), which node-semver (Renovate) and hashicorp/go-version (Go SDK) accept. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function compare(a: string, b: string): number {
  const pa = SEMVER.exec(a)!.slice(1, 4).map(Number);
  const pb = SEMVER.exec(b)!.slice(1, 4).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

describe('GET /version', () => {
  it('is a SemVer release (no pre-release part, which would sort below 1.25.0) with Cairn as build metadata', () => {
    const m = SEMVER.exec(CAIRN_VERSION);
    expect(m, CAIRN_VERSION).not.toBeNull();
    expect(m![4]).toBeUndefined();
    expect(m![5]).toMatch(/^cairn-/);
  });

  it('reports the Gitea 1.25 API level, so clients switching on >= 1.25 use since/until and expect 201 on variable create', () => {
    expect(compare(CAIRN_VERSION, '1.25.0')).toBeGreaterThanOrEqual(0);
    expect(compare(CAIRN_VERSION, '1.26.0')).toBeLessThan(0);
  });
});
