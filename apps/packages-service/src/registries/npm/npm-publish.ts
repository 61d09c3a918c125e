import { createHash } from 'node:crypto';
import { DomainError } from '@cairn/contracts';
import { npmDistTag, npmPackageName, npmTarballFilename, npmVersion, type NpmPackageName } from './npm-names.js';

/** Named as Gitea stores npm metadata, plus what npm needs to install (`engines`, `os`, `cpu`, …). */
export interface NpmMetadata {
  scope?: string;
  name?: string;
  description?: string;
  author?: string;
  license?: string;
  project_url?: string;
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  development_dependencies?: Record<string, string>;
  peer_dependencies?: Record<string, string>;
  peer_dependencies_meta?: Record<string, unknown>;
  optional_dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  has_install_script?: boolean;
  readme?: string;
  repository?: { type: string; url: string };
}

export interface NpmPublish {
  name: NpmPackageName;
  version: string;
  distTags: string[];
  metadata: NpmMetadata;
  filename: string;
  integrity: string;
  shasum?: string;
}

const MAX_METADATA_TEXT = 1 << 20;

/** Exactly one version, named as the URL, with valid dist-tags, one attachment and an integrity; else a 400. */
export function parsePublishDocument(document: Record<string, unknown>, urlName: NpmPackageName): NpmPublish {
  const versions = document.versions;
  if (!isObject(versions) || Object.keys(versions).length !== 1) {
    throw DomainError.invalid('package is invalid: "versions" must hold exactly the one version being published');
  }
  const manifest = Object.values(versions)[0];
  if (!isObject(manifest)) throw DomainError.invalid('package is invalid: the version must be a JSON object');
  const name = npmPackageName(typeof manifest.name === 'string' ? manifest.name : '');
  if (name.full !== urlName.full) {
    throw DomainError.invalid(`package name "${name.full}" in the body does not match "${urlName.full}" in the URL`);
  }
  const version = npmVersion(manifest.version);
  if (Object.keys(versions)[0] !== version) {
    throw DomainError.invalid(`package is invalid: version key "${Object.keys(versions)[0]}" differs from "${version}"`);
  }
  const distTags = isObject(document['dist-tags']) ? Object.keys(document['dist-tags']).map(npmDistTag) : [];
  const attachments = document._attachments;
  if (!isObject(attachments) || Object.keys(attachments).length !== 1) {
    throw DomainError.invalid('package attachment is invalid: a publish carries exactly one attachment');
  }
  const dist = isObject(manifest.dist) ? manifest.dist : {};
  if (typeof dist.integrity !== 'string' || !dist.integrity) {
    throw DomainError.invalid('failed to validate integrity: the version has no dist.integrity');
  }
  return {
    name,
    version,
    distTags,
    metadata: versionMetadata(name, manifest, document),
    filename: npmTarballFilename(name, version),
    integrity: dist.integrity,
    ...(typeof dist.shasum === 'string' ? { shasum: dist.shasum } : {}),
  };
}

export interface TarballDigests {
  sha1: string;
  sha512: string;
}

/** `dist.integrity` is Subresource Integrity (sha512 and sha1 understood); a 400 when a digest disagrees. */
export function checkIntegrity(publish: Pick<NpmPublish, 'integrity' | 'shasum'>, digests: TarballDigests): void {
  const known = { sha512: digests.sha512, sha1: digests.sha1 };
  const claims = publish.integrity
    .trim()
    .split(/\s+/)
    .map((entry) => /^(sha512|sha1)-([A-Za-z0-9+/]+={0,2})(\?.*)?$/.exec(entry))
    .filter((m): m is RegExpExecArray => m !== null);
  if (!claims.length) throw DomainError.invalid('failed to validate integrity: no sha512 or sha1 in dist.integrity');
  for (const [, algorithm, digest] of claims) {
    if (Buffer.from(digest, 'base64').toString('hex') !== known[algorithm as keyof typeof known]) {
      throw DomainError.invalid(`failed to validate integrity: the tarball's ${algorithm} differs from dist.integrity`);
    }
  }
  if (publish.shasum !== undefined && publish.shasum.toLowerCase() !== digests.sha1) {
    throw DomainError.invalid("failed to validate integrity: the tarball's sha1 differs from dist.shasum");
  }
}

/** sha512 and sha1 of bytes in memory (tests and small tarballs). */
export function tarballDigests(data: Buffer): TarballDigests {
  return {
    sha1: createHash('sha1').update(data).digest('hex'),
    sha512: createHash('sha512').update(data).digest('hex'),
  };
}

function versionMetadata(
  name: NpmPackageName,
  manifest: Record<string, unknown>,
  document: Record<string, unknown>,
): NpmMetadata {
  const repository = repositoryOf(manifest.repository);
  const homepage = text(manifest.homepage);
  const readme = text(manifest.readme) ?? text(document.readme);
  const scripts = isObject(manifest.scripts) ? manifest.scripts : {};
  const metadata: NpmMetadata = {
    scope: name.scope || undefined,
    name: name.bare,
    description: text(manifest.description),
    author: personName(manifest.author),
    license: text(manifest.license),
    project_url: homepage && isHttpUrl(homepage) ? homepage : undefined,
    keywords: stringList(manifest.keywords, 'keywords'),
    dependencies: stringMap(manifest.dependencies, 'dependencies'),
    bundleDependencies: stringList(manifest.bundleDependencies ?? manifest.bundledDependencies, 'bundleDependencies'),
    development_dependencies: stringMap(manifest.devDependencies, 'devDependencies'),
    peer_dependencies: stringMap(manifest.peerDependencies, 'peerDependencies'),
    peer_dependencies_meta: isObject(manifest.peerDependenciesMeta) ? manifest.peerDependenciesMeta : undefined,
    optional_dependencies: stringMap(manifest.optionalDependencies, 'optionalDependencies'),
    bin: binOf(manifest.bin, name),
    engines: stringMap(manifest.engines, 'engines'),
    os: stringList(manifest.os, 'os'),
    cpu: stringList(manifest.cpu, 'cpu'),
    has_install_script:
      manifest.hasInstallScript === true || ['preinstall', 'install', 'postinstall'].some((s) => s in scripts) || undefined,
    readme,
    repository,
  };
  return Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== undefined)) as NpmMetadata;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  if (value.length > MAX_METADATA_TEXT) return value.slice(0, MAX_METADATA_TEXT);
  return value;
}

/** npm people are `"Name <email> (url)"` or `{ name, email, url }`; Gitea keeps the name. */
function personName(value: unknown): string | undefined {
  if (typeof value === 'string') return text(value);
  return isObject(value) ? text(value.name) : undefined;
}

function repositoryOf(value: unknown): { type: string; url: string } | undefined {
  if (typeof value === 'string' && value) return { type: '', url: value };
  if (isObject(value) && typeof value.url === 'string') {
    return { type: typeof value.type === 'string' ? value.type : '', url: value.url };
  }
  return undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function stringMap(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw DomainError.invalid(`package is invalid: "${field}" must map names to strings`);
  }
  return Object.keys(value).length ? (value as Record<string, string>) : undefined;
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw DomainError.invalid(`package is invalid: "${field}" must be a list of strings`);
  }
  return value.length ? (value as string[]) : undefined;
}

/** `bin` may be one path (the command is the bare package name) or a map of commands to paths. */
function binOf(value: unknown, name: NpmPackageName): Record<string, string> | undefined {
  if (typeof value === 'string') return { [name.bare]: value };
  return stringMap(value, 'bin');
}
