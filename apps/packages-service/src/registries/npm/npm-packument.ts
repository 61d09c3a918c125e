import type { NpmMetadata } from './npm-publish.js';
import { compareSemver, parseSemver, type SemanticVersion } from '../../store/semver.js';

export interface NpmVersionRecord {
  version: string;
  created: Date;
  metadata: NpmMetadata;
  filename: string;
  sha1: string;
  sha512: string;
  tags: string[];
}

interface NpmUser {
  name: string;
}

/** The npm registry's version object (npm/registry docs, "REGISTRY-API.md#version"). */
export interface PackumentVersion {
  _id: string;
  name: string;
  version: string;
  description?: string;
  author?: NpmUser;
  homepage?: string;
  license?: string;
  repository?: { type: string; url: string };
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
  optionalDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  hasInstallScript?: boolean;
  maintainers: NpmUser[];
  dist: { integrity: string; shasum: string; tarball: string };
}

/** The package document npm reads for `npm install` / `npm view` (`GET /{package}`). */
export interface Packument {
  _id: string;
  name: string;
  description?: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, PackumentVersion>;
  readme?: string;
  maintainers: NpmUser[];
  time: Record<string, string>;
  homepage?: string;
  keywords?: string[];
  repository?: { type: string; url: string };
  author?: NpmUser;
  license?: string;
}

/** `<ROOT_URL>api/packages/<owner>/npm`: the registry URL of an owner, as `npm config set registry` takes it. */
export function npmRegistryUrl(rootUrl: string, owner: string): string {
  return `${rootUrl.endsWith('/') ? rootUrl : `${rootUrl}/`}api/packages/${encodeURIComponent(owner)}/npm`;
}

/** The tarball URL Gitea 1.24 writes into `dist.tarball`: lockfiles keep these URLs, so their form must stay. */
export function npmTarballUrl(registryUrl: string, name: string, version: string, filename: string): string {
  return `${registryUrl}/${encodeURIComponent(name)}/-/${encodeURIComponent(version)}/${encodeURIComponent(filename)}`;
}

/** `latest` falls back to the highest release, else the highest version: yarn and pnpm fail without one. */
export function buildPackument(
  registryUrl: string,
  owner: string,
  name: string,
  records: NpmVersionRecord[],
): Packument {
  if (!records.length) throw new Error('a packument needs at least one version');
  const sorted = records
    .map((record) => ({ record, semver: parseSemver(record.version) ?? fallbackSemver }))
    .sort((a, b) => compareSemver(a.semver, b.semver));
  const maintainers = [{ name: owner }];
  const versions: Record<string, PackumentVersion> = {};
  const distTags: Record<string, string> = {};
  const time: Record<string, string> = {};
  let created = sorted[0].record.created;
  let modified = created;
  for (const { record } of sorted) {
    versions[record.version] = packumentVersion(registryUrl, name, maintainers, record);
    time[record.version] = record.created.toISOString();
    if (record.created < created) created = record.created;
    if (record.created > modified) modified = record.created;
    for (const tag of record.tags) distTags[tag] = record.version;
  }
  time.created = created.toISOString();
  time.modified = modified.toISOString();
  if (!distTags.latest) {
    const release = [...sorted].reverse().find(({ semver }) => semver.prerelease.length === 0) ?? sorted.at(-1)!;
    distTags.latest = release.record.version;
  }
  const latest = sorted.find(({ record }) => record.version === distTags.latest)!.record.metadata;
  return withoutUndefined({
    _id: name,
    name,
    description: latest.description,
    'dist-tags': distTags,
    versions,
    readme: latest.readme,
    maintainers,
    time,
    homepage: latest.project_url,
    keywords: latest.keywords,
    repository: latest.repository,
    author: latest.author ? { name: latest.author } : undefined,
    license: latest.license,
  });
}

function packumentVersion(
  registryUrl: string,
  name: string,
  maintainers: NpmUser[],
  record: NpmVersionRecord,
): PackumentVersion {
  const m = record.metadata;
  return withoutUndefined({
    _id: `${name}@${record.version}`,
    name,
    version: record.version,
    description: m.description,
    author: m.author ? { name: m.author } : undefined,
    homepage: m.project_url,
    license: m.license,
    repository: m.repository,
    keywords: m.keywords,
    dependencies: m.dependencies,
    bundleDependencies: m.bundleDependencies,
    devDependencies: m.development_dependencies,
    peerDependencies: m.peer_dependencies,
    peerDependenciesMeta: m.peer_dependencies_meta,
    optionalDependencies: m.optional_dependencies,
    bin: m.bin,
    engines: m.engines,
    os: m.os,
    cpu: m.cpu,
    hasInstallScript: m.has_install_script,
    maintainers,
    dist: {
      integrity: `sha512-${Buffer.from(record.sha512, 'hex').toString('base64')}`,
      shasum: record.sha1,
      tarball: npmTarballUrl(registryUrl, name, record.version, record.filename),
    },
  });
}

export interface NpmSearchObject {
  package: {
    scope: string;
    name: string;
    version: string;
    date: string;
    description?: string;
    author?: NpmUser;
    publisher: NpmUser;
    maintainers: NpmUser[];
    keywords?: string[];
    links: { npm?: string; homepage?: string };
  };
}

/** The search response for the latest versions of the packages found (`total` counts all hits, not this page). */
export function buildSearchResponse(
  registryUrl: string,
  owner: string,
  hits: { name: string; latest: NpmVersionRecord }[],
  total: number,
): { objects: NpmSearchObject[]; total: number } {
  return {
    objects: hits.map(({ name, latest }) => ({
      package: withoutUndefined({
        scope: latest.metadata.scope ? latest.metadata.scope.slice(1) : 'unscoped',
        name,
        version: latest.version,
        date: latest.created.toISOString(),
        description: latest.metadata.description,
        author: latest.metadata.author ? { name: latest.metadata.author } : undefined,
        publisher: { name: owner },
        maintainers: [], // the npm CLI needs the field
        keywords: latest.metadata.keywords,
        links: withoutUndefined({ npm: `${registryUrl}/${encodeURIComponent(name)}`, homepage: latest.metadata.project_url }),
      }),
    })),
    total,
  };
}

/** Versions stored before a rule change could in principle fail to parse; they sort first rather than break reads. */
const fallbackSemver: SemanticVersion = { core: [-1n, 0n, 0n], prerelease: [] };

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
