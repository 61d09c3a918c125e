import { describe, expect, it } from 'vitest';
import { buildPackument, buildSearchResponse, npmRegistryUrl, type NpmVersionRecord } from './npm-packument.js';

const registry = npmRegistryUrl('http://localhost:3000/', 'user2');
const sha512 = 'c80e0526c5617adca719f382d6315fefd06e4be8eb1db9b47e187e687cc242439a3815ca7fda019c2e1ae839cb2e712c1d00d12d8774d1cc23f2c097a42fb022';

function record(version: string, day: number, extra: Partial<NpmVersionRecord> = {}): NpmVersionRecord {
  return {
    version,
    created: new Date(Date.UTC(2026, 0, day)),
    metadata: { scope: '@scope', name: 'test-package', description: `d${version}`, author: 'KN4CK3R', bin: { cli: './cli.sh' } },
    filename: `test-package-${version}.tgz`,
    sha1: 'aaa7eaf852a948b0aa05afeda35b1badca155d90',
    sha512,
    tags: [],
    ...extra,
  };
}

describe('buildPackument (Gitea TestPackageNpm PackageMetadata)', () => {
  it("serves versions, dist-tags and Gitea's dist fields", () => {
    const doc = buildPackument(registry, 'user2', '@scope/test-package', [record('1.0.1-pre', 1, { tags: ['latest', 'release'] })]);
    expect(registry).toBe('http://localhost:3000/api/packages/user2/npm');
    expect(doc._id).toBe('@scope/test-package');
    expect(doc['dist-tags']).toEqual({ latest: '1.0.1-pre', release: '1.0.1-pre' });
    expect(doc.author).toEqual({ name: 'KN4CK3R' });
    expect(doc.maintainers).toEqual([{ name: 'user2' }]);
    const v = doc.versions['1.0.1-pre'];
    expect(v._id).toBe('@scope/test-package@1.0.1-pre');
    expect(v.bin).toEqual({ cli: './cli.sh' });
    expect(v.dist).toEqual({
      integrity: 'sha512-yA4FJsVhetynGfOC1jFf79BuS+jrHbm0fhh+aHzCQkOaOBXKf9oBnC4a6DnLLnEsHQDRLYd00cwj8sCXpC+wIg==',
      shasum: 'aaa7eaf852a948b0aa05afeda35b1badca155d90',
      tarball: 'http://localhost:3000/api/packages/user2/npm/%40scope%2Ftest-package/-/1.0.1-pre/test-package-1.0.1-pre.tgz',
    });
    expect(doc.time).toEqual({
      '1.0.1-pre': '2026-01-01T00:00:00.000Z',
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
    });
  });

  it('orders versions by semver and describes the package by its latest version', () => {
    const doc = buildPackument(registry, 'user2', '@scope/test-package', [
      record('1.10.0', 3),
      record('1.2.0', 5, { tags: ['latest'] }),
      record('1.9.0', 1),
    ]);
    expect(Object.keys(doc.versions)).toEqual(['1.2.0', '1.9.0', '1.10.0']);
    expect(doc.description).toBe('d1.2.0');
    expect(doc.time.created).toBe('2026-01-01T00:00:00.000Z');
    expect(doc.time.modified).toBe('2026-01-05T00:00:00.000Z');
  });

  it('points latest at the highest release when no version carries the tag (yarn and pnpm need it)', () => {
    const tagless = buildPackument(registry, 'o', 'p', [record('1.0.0', 1), record('2.0.0-rc.1', 2), record('1.5.0', 3, { tags: ['next'] })]);
    expect(tagless['dist-tags']).toEqual({ next: '1.5.0', latest: '1.5.0' });
    const prereleasesOnly = buildPackument(registry, 'o', 'p', [record('1.0.0-a', 1), record('1.0.0-b', 2)]);
    expect(prereleasesOnly['dist-tags'].latest).toBe('1.0.0-b');
  });

  it('needs a version', () => {
    expect(() => buildPackument(registry, 'o', 'p', [])).toThrow();
  });
});

describe('buildSearchResponse', () => {
  it("answers npm's search shape with the total of all hits", () => {
    const res = buildSearchResponse(registry, 'user2', [{ name: '@scope/test-package', latest: record('1.0.0', 2) }], 3);
    expect(res.total).toBe(3);
    expect(res.objects[0].package).toMatchObject({
      scope: 'scope',
      name: '@scope/test-package',
      version: '1.0.0',
      publisher: { name: 'user2' },
      maintainers: [],
      links: { npm: `${registry}/%40scope%2Ftest-package` },
    });
  });
});
