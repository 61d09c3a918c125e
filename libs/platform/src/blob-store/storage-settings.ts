import path from 'node:path';
import { loadSettings, parsers, type SettingSpec, type SettingsOf } from '../config/settings.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

/** Gitea's `[storage]`: for every kind of data unless `[storage.<kind>]` says otherwise. */
export const storageSettingsSpec = {
  /** `local` (a folder; the default) or `minio` (any S3-compatible server); docs/storage.md. */
  storageType: { section: 'storage', key: 'STORAGE_TYPE', default: 'local', parse: parsers.oneOf('local', 'minio') },
  /** The S3 endpoint as `host:port`. */
  minioEndpoint: { section: 'storage', key: 'MINIO_ENDPOINT', default: 'localhost:9000', parse: parsers.string },
  /** The access key of the S3 account. */
  minioAccessKeyId: { section: 'storage', key: 'MINIO_ACCESS_KEY_ID', default: '', parse: parsers.string },
  /** Its secret key (never logged; in Kubernetes, put it in the Secret). */
  minioSecretAccessKey: { section: 'storage', key: 'MINIO_SECRET_ACCESS_KEY', default: '', parse: parsers.string },
  /** Created at start when missing, as Gitea does. */
  minioBucket: { section: 'storage', key: 'MINIO_BUCKET', default: 'cairn', parse: parsers.string },
  /** The bucket's region. */
  minioLocation: { section: 'storage', key: 'MINIO_LOCATION', default: 'us-east-1', parse: parsers.string },
  /** `true`: HTTPS to the endpoint. */
  minioUseSsl: { section: 'storage', key: 'MINIO_USE_SSL', default: false, parse: parsers.bool },
  /** A key prefix in the bucket; empty: the kind's name and `/` (`packages/`), as Gitea. */
  minioBasePath: { section: 'storage', key: 'MINIO_BASE_PATH', default: '', parse: parsers.string },
  /** `true`: package and attachment downloads answer a redirect to a presigned URL (5 minutes); clients must reach `MINIO_ENDPOINT`. */
  serveDirect: { section: 'storage', key: 'SERVE_DIRECT', default: false, parse: parsers.bool },
} satisfies Record<string, SettingSpec<unknown>>;

export type StorageSettings = SettingsOf<typeof storageSettingsSpec>;

/** Where package blobs live with local storage (`blobs/<aa>/<bb>/<sha256>`, `tmp/`); shared by all replicas. */
export const packagesStoragePath: SettingSpec<string> = {
  section: 'packages', key: 'STORAGE_PATH', default: './data/packages', parse: parsers.string,
};

/** Release attachments' folder with local storage; empty: `<[repository] ROOT>/../attachments` (Gitea's default). */
export const attachmentsStoragePath: SettingSpec<string> = {
  section: 'attachment', key: 'PATH', default: '', parse: parsers.string,
};
export type StorageKind = 'packages' | 'attachments' | 'actions_log' | 'actions_artifacts';

/**
 * The attachments' folder with local storage (and of their local `tmp/` on S3): `[attachment] PATH`, else beside the
 * repositories. One home for repo-service and the storage migration.
 */
export function attachmentsLocalRoot(settings: { attachmentPath: string; repoRoot: string }): string {
  if (settings.attachmentPath) return path.resolve(settings.attachmentPath);
  return path.join(path.dirname(path.resolve(settings.repoRoot)), 'attachments');
}

/** `[storage]` overlaid by `[storage.<kind>]`: a key set in the kind's section wins. */
export function storageSettingsFor(kind: StorageKind, env: NodeJS.ProcessEnv = process.env): StorageSettings {
  const base = loadSettings(storageSettingsSpec, env);
  const overrides = Object.fromEntries(
    Object.entries(storageSettingsSpec).map(([name, s]) => [name, { ...s, section: `storage.${kind}`, default: undefined, parse: s.parse as (raw: string) => unknown }]),
  ) as Record<string, SettingSpec<unknown>>;
  const own = loadSettings(overrides, env) as Record<string, unknown>;
  const merged = { ...base } as Record<string, unknown>;
  for (const [name, value] of Object.entries(own)) if (value !== undefined) merged[name] = value;
  if (!merged.minioBasePath) merged.minioBasePath = `${kind}/`;
  return merged as StorageSettings;
}

/** `storageType` overrides the setting (the storage migration opens both). */
export async function openBlobStore(
  kind: StorageKind,
  localRoot: string,
  env: NodeJS.ProcessEnv = process.env,
  storageType?: StorageSettings['storageType'],
): Promise<BlobStore> {
  const s = storageSettingsFor(kind, env);
  if ((storageType ?? s.storageType) === 'local') return new FsBlobStore(localRoot);
  const store = new S3BlobStore({
    endpoint: s.minioEndpoint,
    accessKeyId: s.minioAccessKeyId,
    secretAccessKey: s.minioSecretAccessKey,
    bucket: s.minioBucket,
    location: s.minioLocation,
    useSsl: s.minioUseSsl,
    basePath: s.minioBasePath,
    serveDirect: s.serveDirect,
  }, path.join(localRoot, 'tmp'));
  await store.ensureBucket();
  return store;
}
