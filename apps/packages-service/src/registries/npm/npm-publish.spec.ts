import { describe, expect, it } from 'vitest';
import { npmPackageName } from './npm-names.js';
import { checkIntegrity, parsePublishDocument, tarballDigests } from './npm-publish.js';

/** The tarball, integrity and shasum of Gitea's TestPackageNpm (tests/integration/api_packages_npm_test.go). */
const GITEA_TARBALL = Buffer.from(
  'H4sIAAAAAAAA/ytITM5OTE/VL4DQelnF+XkMVAYGBgZmJiYK2MRBwNDcSIHB2NTMwNDQzMwAqA7IMDUxA9LUdgg2UFpcklgEdAql5kD8ogCnhwio5lJQUMpLzE1VslJQcihOzi9I1S9JLS7RhSYIJR2QgrLUouLM/DyQGkM9Az1D3YIiqExKanFyUWZBCVQ2BKhVwQVJDKwosbQkI78IJO/tZ+LsbRykxFXLNdA+HwWjYBSMgpENACgAbtAACAAA',
  'base64',
);
const GITEA_INTEGRITY = 'sha512-yA4FJsVhetynGfOC1jFf79BuS+jrHbm0fhh+aHzCQkOaOBXKf9oBnC4a6DnLLnEsHQDRLYd00cwj8sCXpC+wIg==';
const GITEA_SHASUM = 'aaa7eaf852a948b0aa05afeda35b1badca155d90';

const scoped = npmPackageName('@scope/test-package');

function document(version: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const v = (version.version as string | undefined) ?? '1.0.1-pre';
  return {
    _id: '@scope/test-package',
    name: '@scope/test-package',
    description: 'Test Description',
    'dist-tags': { latest: v },
    versions: {
      [v]: {
        name: '@scope/test-package',
        version: v,
        description: 'Test Description',
        author: { name: 'KN4CK3R' },
        bin: { cli: './cli.sh' },
        dist: { integrity: GITEA_INTEGRITY, shasum: GITEA_SHASUM },
        repository: { type: 'gitea', url: 'http://localhost:3000/gitea/test.git' },
        ...version,
      },
    },
    _attachments: { [`@scope/test-package-${v}.tgz`]: { data: '' } },
    ...extra,
  };
}

describe('parsePublishDocument (Gitea TestPackageNpm upload)', () => {
  it('reads name, version, tags, file name and metadata', () => {
    const publish = parsePublishDocument(document(), scoped);
    expect(publish.name.full).toBe('@scope/test-package');
    expect(publish.version).toBe('1.0.1-pre');
    expect(publish.distTags).toEqual(['latest']);
    expect(publish.filename).toBe('test-package-1.0.1-pre.tgz');
    expect(publish.integrity).toBe(GITEA_INTEGRITY);
    expect(publish.metadata).toEqual({
      scope: '@scope',
      name: 'test-package',
      description: 'Test Description',
      author: 'KN4CK3R',
      bin: { cli: './cli.sh' },
      repository: { type: 'gitea', url: 'http://localhost:3000/gitea/test.git' },
    });
  });

  it('keeps what npm needs to install and drops a homepage that is no http(s) URL', () => {
    const publish = parsePublishDocument(
      document({
        dependencies: { 'left-pad': '^1.0.0' },
        engines: { node: '>=18' },
        os: ['linux'],
        author: 'Jane <jane@example.com>',
        homepage: 'javascript:alert(1)',
        bin: './run.js',
        scripts: { postinstall: 'node x.js' },
        license: 'MIT',
        keywords: ['a'],
      }),
      scoped,
    );
    expect(publish.metadata).toMatchObject({
      dependencies: { 'left-pad': '^1.0.0' },
      engines: { node: '>=18' },
      os: ['linux'],
      author: 'Jane <jane@example.com>',
      bin: { 'test-package': './run.js' },
      has_install_script: true,
      license: 'MIT',
      keywords: ['a'],
    });
    expect(publish.metadata.project_url).toBeUndefined();
    expect(parsePublishDocument(document({ homepage: 'https://example.com' }), scoped).metadata.project_url).toBe('https://example.com');
  });

  it.each([
    ['no versions', document({}, { versions: {} }), /exactly the one version/],
    ['two versions', document({}, { versions: { '1.0.0': {}, '1.0.1': {} } }), /exactly the one version/],
    ['another package than the URL', document({ name: '@scope/other' }), /does not match/],
    ['an invalid name', document({ name: '@Scope/X' }), /package name is invalid/],
    ['an invalid version', document({ version: '1.0' }), /package version is invalid/],
    ['a version under another key', { ...document(), versions: { '2.0.0': document().versions['1.0.1-pre'] } }, /differs/],
    ['a version-like dist-tag', document({}, { 'dist-tags': { 'v1.0': '1.0.1-pre' } }), /tag name is invalid/],
    ['no attachment', document({}, { _attachments: {} }), /exactly one attachment/],
    ['no integrity', document({ dist: {} }), /no dist.integrity/],
    ['dependencies that are not strings', document({ dependencies: { a: 1 } }), /"dependencies" must map names to strings/],
  ])('refuses %s with a 400', (_why, doc, message) => {
    expect(() => parsePublishDocument(doc as Record<string, unknown>, scoped)).toThrow(message);
  });
});

describe('checkIntegrity', () => {
  it("accepts Gitea's test tarball with its sha512 integrity and sha1 shasum", () => {
    expect(GITEA_TARBALL.length).toBe(192);
    expect(() => checkIntegrity({ integrity: GITEA_INTEGRITY, shasum: GITEA_SHASUM }, tarballDigests(GITEA_TARBALL))).not.toThrow();
    const sha1 = `sha1-${Buffer.from(GITEA_SHASUM, 'hex').toString('base64')}`;
    expect(() => checkIntegrity({ integrity: `${sha1} ${GITEA_INTEGRITY}` }, tarballDigests(GITEA_TARBALL))).not.toThrow();
  });

  it('refuses a tarball that differs from its integrity or shasum', () => {
    const other = tarballDigests(Buffer.from('other'));
    expect(() => checkIntegrity({ integrity: GITEA_INTEGRITY }, other)).toThrow(/sha512 differs/);
    expect(() => checkIntegrity({ integrity: GITEA_INTEGRITY, shasum: 'ab'.repeat(20) }, tarballDigests(GITEA_TARBALL))).toThrow(
      /dist.shasum/,
    );
    expect(() => checkIntegrity({ integrity: 'md5-AAAA' }, other)).toThrow(/no sha512 or sha1/);
  });
});
