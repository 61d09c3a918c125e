/**
 * A private MinIO server per test file (the real S3-compatible server, built from the Go module proxy by
 * scripts/clients/minio.mjs), on a free port with its data in a temporary folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-ignore — plain ESM JavaScript without type declarations
import { clientSpec, clientStatus, ensureClient } from '../../scripts/clients.mjs';
// @ts-ignore — plain ESM JavaScript without type declarations
import { minioStorageEnv, runMinio } from '../../scripts/clients/minio.mjs';
import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './integration.js';

export interface RunningMinio {
  /** `host:port`, as `[storage] MINIO_ENDPOINT`. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `CAIRN__STORAGE__*` variables that put every kind of blob in this server's `bucket`. */
  env(bucket: string): Record<string, string>;
  /** The keys of the objects `bucket` holds under `prefix`. */
  objectKeys(bucket: string, prefix: string): Promise<string[]>;
  objectCount(bucket: string, prefix: string): Promise<number>;
  /** How many unfinished multipart uploads `key` has (MinIO lists them by exact key only). */
  unfinishedUploads(bucket: string, key: string): Promise<number>;
  stop(): Promise<void>;
}

const running = new Set<RunningMinio>();
const packageBlobsAtStop: number[] = [];

/** The one MinIO server this process runs (a test file's suite's). */
export function theRunningMinio(): RunningMinio {
  if (running.size !== 1) throw new Error(`expected one running MinIO server, found ${running.size}`);
  return [...running][0]!;
}

/**
 * How many package blobs the suites of this process put in MinIO (bucket `cairn`, `[storage.packages]`'s default
 * prefix): counted on the servers still running, and on the others when they stopped. Proves a test ran on S3.
 */
export async function packageBlobsInMinio(): Promise<number> {
  let total = packageBlobsAtStop.reduce((a, b) => a + b, 0);
  for (const server of running) total += await server.objectCount('cairn', 'packages/blobs/');
  return total;
}

/** Why MinIO cannot run here (no Go toolchain), or null; with `CI=true` a missing toolchain is a failure. */
export function minioMissing(): string | null {
  const missing = (clientStatus(clientSpec('minio')) as { missing: string | null }).missing;
  if (missing && process.env.CI === 'true') throw new Error(`minio needs ${missing}`);
  if (missing) process.stdout.write(`minio: skipped, install ${missing}\n`);
  return missing;
}

export async function startMinio(): Promise<RunningMinio> {
  const { bin } = (await ensureClient('minio')) as { bin: string };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cairn-minio-'));
  const port = await freePort();
  let consolePort = await freePort();
  while (consolePort === port) consolePort = await freePort();
  const accessKeyId = `cairn${randomBytes(4).toString('hex')}`;
  const secretAccessKey = randomBytes(18).toString('base64url');
  let minio: { endpoint: string; stop: () => Promise<void> };
  try {
    minio = await runMinio({ bin, dataDir, port, consolePort, accessKeyId, secretAccessKey });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const { endpoint } = minio;
  const client = new S3Client({
    endpoint: `http://${endpoint}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId, secretAccessKey },
  });
  const server: RunningMinio = {
    endpoint,
    accessKeyId,
    secretAccessKey,
    env: (bucket) => minioStorageEnv(endpoint, { accessKeyId, secretAccessKey }, bucket),
    async objectKeys(bucket, prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async objectCount(bucket, prefix) {
      return (await server.objectKeys(bucket, prefix)).length;
    },
    async unfinishedUploads(bucket, key) {
      const page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
      return (page.Uploads ?? []).filter((u) => u.Key === key).length;
    },
    async stop() {
      if (!running.delete(server)) return;
      packageBlobsAtStop.push(await server.objectCount('cairn', 'packages/blobs/').catch(() => 0));
      client.destroy();
      await minio.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  running.add(server);
  return server;
}
