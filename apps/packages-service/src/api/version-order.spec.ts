import { describe, expect, it } from 'vitest';
import { compareSemver, parseSemver } from '../store/semver.js';
import { sortBySemver } from './version-order.js';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const v = (id: number, version: string, minute = id) => ({ id, version, createdAt: at(minute) });

describe('sortBySemver', () => {
  it('orders by semantic-version precedence, not by creation or text', () => {
    const sorted = sortBySemver([v(1, '1.10.0'), v(2, '1.9.0'), v(3, '1.2.0'), v(4, '2.0.0-rc.1'), v(5, '1.10.0-beta')]);
    expect(sorted.map((x) => x.version)).toEqual(['2.0.0-rc.1', '1.10.0', '1.10.0-beta', '1.9.0', '1.2.0']);
  });

  it('puts versions that are not semantic versions after the others, newest first', () => {
    const sorted = sortBySemver([v(1, 'latest-build'), v(2, '0.1.0'), v(3, 'nightly'), v(4, '0.0.1')]);
    expect(sorted.map((x) => x.version)).toEqual(['0.1.0', '0.0.1', 'nightly', 'latest-build']);
  });

  it('accepts a leading v and orders equal precedence (build metadata) newest first', () => {
    const sorted = sortBySemver([v(1, '1.0.0+build.1'), v(2, 'v1.0.1'), v(3, '1.0.0+build.2')]);
    expect(sorted.map((x) => x.version)).toEqual(['v1.0.1', '1.0.0+build.2', '1.0.0+build.1']);
  });

  it('breaks a creation-time tie by id', () => {
    const sorted = sortBySemver([v(1, 'a', 5), v(2, 'b', 5)]);
    expect(sorted.map((x) => x.id)).toEqual([2, 1]);
  });
});

describe('parseSemver', () => {
  it('refuses what SemVer 2.0.0 does not allow', () => {
    for (const bad of ['1.0', '01.0.0', '1.0.0-01', '1.0.0-', '1.0.0+', 'x.y.z', '1.0.0.0', '']) {
      expect(parseSemver(bad), bad).toBeNull();
    }
  });

  it('ranks pre-release identifiers as the specification lists', () => {
    const chain = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    for (let i = 1; i < chain.length; i++) {
      expect(compareSemver(parseSemver(chain[i - 1])!, parseSemver(chain[i])!), `${chain[i - 1]} < ${chain[i]}`).toBeLessThan(0);
    }
  });
});
