import { describe, expect, it } from 'vitest';
import { npmDistTag, npmPackageName, npmPackageNameFromPath, npmTarballFilename, npmVersion } from './npm-names.js';
import { compareSemver, parseSemver } from '../../store/semver.js';

describe('npm package names', () => {
  it('splits scoped and unscoped names', () => {
    expect(npmPackageName('@scope/test-package')).toEqual({ full: '@scope/test-package', scope: '@scope', bare: 'test-package' });
    expect(npmPackageName('left.pad_2')).toEqual({ full: 'left.pad_2', scope: '', bare: 'left.pad_2' });
    expect(npmPackageNameFromPath(['@scope', 'pkg']).full).toBe('@scope/pkg');
  });

  it.each(['', 'Upper', ' lead', '.dot-first', '@scope/', '@/x', 'a/b', '@s/a/b', '../x', 'a\u0000b', 'x'.repeat(215), '_x'])(
    'refuses %j with a 400 naming the rule',
    (name) => {
      expect(() => npmPackageName(name)).toThrow(/package name is invalid/);
    },
  );

  it('accepts the longest allowed name', () => {
    expect(npmPackageName('x'.repeat(214)).bare).toHaveLength(214);
  });

  it('names tarballs as Gitea does: the bare name, the version, lower case', () => {
    expect(npmTarballFilename(npmPackageName('@scope/test-package'), '1.0.1-PRE')).toBe('test-package-1.0.1-pre.tgz');
  });
});

describe('npm versions', () => {
  it.each(['1.0.0', '1.0.1-pre', '0.0.0-alpha.1+build.5', '10.20.30'])('accepts %s', (v) => {
    expect(npmVersion(v)).toBe(v);
  });

  it.each(['1.0', 'v1.0.0', '01.0.0', '1.0.0-', '', 'latest', '1.0.0 ', 'x'.repeat(300), 42])('refuses %j', (v) => {
    expect(() => npmVersion(v)).toThrow(/package version is invalid/);
  });

  it('orders versions by semver precedence', () => {
    const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.2.0', '1.10.0', '2.0.0'];
    const shuffled = [...order].reverse();
    const sorted = shuffled.sort((a, b) => compareSemver(parseSemver(a)!, parseSemver(b)!));
    expect(sorted).toEqual(order);
    expect(compareSemver(parseSemver('1.0.0+a')!, parseSemver('1.0.0+b')!)).toBe(0);
  });
});

describe('npm dist-tags (Gitea TestPackageNpm AddTag/DeleteTag)', () => {
  it.each(['latest', 'release', 'next-2', 'beta'])('accepts %s', (tag) => {
    expect(npmDistTag(tag)).toBe(tag);
  });

  it.each(['1.0', 'v1.0', '2', '1.0.0-beta', '', 'a/b', 'with space', 'x'.repeat(257)])('refuses %j', (tag) => {
    expect(() => npmDistTag(tag)).toThrow(/The tag name is invalid/);
  });
});
