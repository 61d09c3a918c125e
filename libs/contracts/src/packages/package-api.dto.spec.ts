import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { LatestPackageVersionQuery, ListPackageVersionsQuery, PackageVersionRequest } from './package-api.dto.js';

const errorsOf = <T extends object>(cls: new () => T, plain: object) =>
  validateSync(plainToInstance(cls, plain)).flatMap((e) => Object.values(e.constraints ?? {}));

describe('packages API query and request classes', () => {
  it('semver=true|false on -/latest, nothing else', () => {
    expect(plainToInstance(LatestPackageVersionQuery, { semver: 'true' }).semver).toBe(true);
    expect(plainToInstance(LatestPackageVersionQuery, { semver: 'false' }).semver).toBe(false);
    expect(errorsOf(LatestPackageVersionQuery, {})).toEqual([]);
    expect(errorsOf(LatestPackageVersionQuery, { semver: 'yes' })).toEqual(['semver must be true or false']);
  });

  it('sort=semver or created on the versions list', () => {
    expect(errorsOf(ListPackageVersionsQuery, { sort: 'semver', page: '2', limit: '10' })).toEqual([]);
    expect(errorsOf(ListPackageVersionsQuery, { sort: 'name' })).toHaveLength(1);
  });

  it('refuses control characters and unknown type shapes in a version request', () => {
    const ok = { actor: null, owner: 'o', type: 'generic', name: '@scope/name', version: '1.0.0' };
    expect(errorsOf(PackageVersionRequest, ok)).toEqual([]);
    expect(errorsOf(PackageVersionRequest, { ...ok, version: '1.0\u0000' })).toEqual(['version must be printable text']);
    expect(errorsOf(PackageVersionRequest, { ...ok, type: 'Generic/..' })).toEqual(['type must be a package type']);
    expect(errorsOf(PackageVersionRequest, { ...ok, name: 'x'.repeat(256) })).toHaveLength(1);
  });
});
