// The same behaviours of both blob-store backends: a temporary folder, and a real MinIO server (S3) started here.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minioMissing, startMinio, type RunningMinio } from '../../../../test/support/minio.js';
import { BlobTooLargeError, type BlobStore } from './blob-store.js';
import type { FsBlobStore } from './fs-blob-store.js';
import { migrateBlobs } from './migrate-blobs.js';
import { S3BlobStore } from './s3-blob-store.js';
import { openBlobStore, storageSettingsFor } from './storage-settings.js';

const hex = (algo: string, data: Buffer) => createHash(algo).update(data).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const chunked = (data: Buffer, size = 65_536) => Readable.from((function* () {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
})());

const missing = minioMissing();
let minio: RunningMinio | undefined;
const roots: string[] = [];

beforeAll(async () => {
  if (!missing) minio = await startMinio();
}, 600_000);

afterAll(async () => {
  await minio?.stop();
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function freshStore(kind: 'local' | 'minio'): Promise<BlobStore> {
  const root = await mkdtemp(path.join(tmpdir(), 'cairn-blobs-'));
  roots.push(root);
  const env = kind === 'local' ? {} : minio!.env(`test-${randomBytes(4).toString('hex')}`);
  return openBlobStore('packages', root, env);
}

for (const kind of ['local', 'minio'] as const) {
  describe.skipIf(kind === 'minio' && missing !== null)(`blob store on ${kind} storage`, () => {
    let store: BlobStore;
    beforeAll(async () => {
      store = await freshStore(kind);
    });

    it('stores streamed content under its sha256 with all four digests, whole and in ranges, once', async () => {
      // Larger than the S3 store's multipart part, in odd chunks: every slab and part boundary is crossed unaligned.
      const data = randomBytes(9 * 1024 * 1024 + 17);
      const blob = await store.put(chunked(data, 100_003), { maxBytes: -1 });
      expect(blob).toEqual({
        size: data.length, md5: hex('md5', data), sha1: hex('sha1', data), sha256: hex('sha256', data), sha512: hex('sha512', data),
      });
      expect((await readAll((await store.open(blob.sha256))!)).equals(data)).toBe(true);
      expect((await readAll((await store.open(blob.sha256, { start: 100, end: 199 }))!)).equals(data.subarray(100, 200))).toBe(true);
      expect(await store.size(blob.sha256)).toBe(data.length);
      await store.put(Readable.from([data]), { maxBytes: -1 });
      expect(await store.removeStaleTemp(new Date(Date.now() + 60_000))).toBe(0);
      await store.remove(blob.sha256);
      expect(await store.open(blob.sha256)).toBeNull();
      expect(await store.size(blob.sha256)).toBeNull();
    });

    it('makes staged content visible only once committed, and keeps nothing of a discarded one', async () => {
      const data = randomBytes(4096);
      const staged = await store.stage(Readable.from([data]), { maxBytes: -1 });
      expect(await store.open(staged.sha256)).toBeNull();
      await store.commit(staged);
      expect((await readAll((await store.open(staged.sha256))!)).equals(data)).toBe(true);
      const other = await store.stage(Readable.from([randomBytes(10)]), { maxBytes: -1 });
      await store.discard(other);
      expect(await store.removeStaleTemp(new Date(Date.now() + 60_000))).toBe(0);
    });

    it('refuses content over the limit, and a stream that fails midway, keeping nothing of either', async () => {
      const data = randomBytes(3 * 1024 * 1024);
      await expect(store.stage(chunked(data), { maxBytes: 2 * 1024 * 1024 })).rejects.toBeInstanceOf(BlobTooLargeError);
      const failing = new Readable({ read() {} });
      failing.push(randomBytes(1000));
      const staged = store.stage(failing, { maxBytes: -1 });
      setImmediate(() => failing.destroy(new Error('client went away')));
      await expect(staged).rejects.toThrow('client went away');
      expect(await store.open(hex('sha256', data))).toBeNull();
      expect(await store.removeStaleTemp(new Date(Date.now() + 60_000))).toBe(0);
    });

    it('retires a blob off its address, then drops it; lists stored blobs by age', async () => {
      const blob = await store.put(Readable.from([randomBytes(100)]), { maxBytes: -1 });
      const listed: string[] = [];
      for await (const sha of store.storedBefore(new Date(Date.now() + 60_000))) listed.push(sha);
      expect(listed).toContain(blob.sha256);
      const handle = await store.retire(blob.sha256);
      expect(handle).not.toBeNull();
      expect(await store.open(blob.sha256)).toBeNull();
      expect(await store.retire(blob.sha256)).toBeNull();
      await store.dropRetired(handle!);
      expect(await store.removeStaleTemp(new Date(Date.now() + 60_000))).toBe(0);
    });

    it('refuses addresses that are not sha256 digests', async () => {
      await expect(store.open('../../etc/passwd')).rejects.toThrow(/not a sha256/);
      await expect(store.remove('A'.repeat(64))).rejects.toThrow(/not a sha256/);
    });
  });
}

describe.skipIf(missing !== null)('S3 storage settings', () => {
  it('takes [storage] and lets [storage.<kind>] override it; the bucket is created at open, keys under the kind', async () => {
    const env = { ...minio!.env('shared'), CAIRN__STORAGE_PACKAGES__MINIO_BUCKET: `pkgs-${randomBytes(3).toString('hex')}` };
    expect(storageSettingsFor('attachments', env)).toMatchObject({ storageType: 'minio', minioBucket: 'shared', minioBasePath: 'attachments/' });
    const settings = storageSettingsFor('packages', env);
    expect(settings).toMatchObject({ storageType: 'minio', minioBucket: env.CAIRN__STORAGE_PACKAGES__MINIO_BUCKET, minioBasePath: 'packages/' });
    const root = await mkdtemp(path.join(tmpdir(), 'cairn-blobs-'));
    roots.push(root);
    const store = (await openBlobStore('packages', root, env)) as S3BlobStore;
    const blob = await store.put(Readable.from([Buffer.from('hello')]), { maxBytes: -1 });
    const keys = await store.client.send(new ListObjectsV2Command({ Bucket: settings.minioBucket }));
    expect(keys.Contents?.map((o) => o.Key)).toEqual([`packages/blobs/${blob.sha256.slice(0, 2)}/${blob.sha256.slice(2, 4)}/${blob.sha256}`]);
  });

  it('aborts the multipart upload of an upload whose process died (its marker names it), and removes the marker', async () => {
    const store = (await freshStore('minio')) as S3BlobStore;
    const bucket = store.bucket;
    // What a killed stage() leaves: its marker and its unfinished multipart upload, no object.
    await store.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'packages/tmp/killed.uploading', Body: '' }));
    await store.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'packages/tmp/killed' }));
    const unfinished = async () =>
      (await store.client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'packages/tmp/killed' }))).Uploads ?? [];
    expect(await unfinished()).toHaveLength(1);
    expect(await store.removeStaleTemp(new Date(Date.now() - 60_000))).toBe(0);
    expect(await store.removeStaleTemp(new Date(Date.now() + 60_000))).toBe(1);
    expect(await unfinished()).toEqual([]);
    expect((await store.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'packages/tmp/' }))).KeyCount).toBe(0);
  });
});

describe.skipIf(missing !== null)('migrateBlobs', () => {
  it('copies every blob from a folder to MinIO once, and stops at a blob whose bytes are not its sha256', async () => {
    const from = (await freshStore('local')) as FsBlobStore;
    const to = await freshStore('minio');
    const blobs = await Promise.all([randomBytes(1000), randomBytes(3 * 1024 * 1024)].map((d) => from.put(Readable.from([d]), { maxBytes: -1 })));
    expect(await migrateBlobs(from, to)).toEqual({ copied: 2, skipped: 0, bytes: 1000 + 3 * 1024 * 1024 });
    for (const b of blobs) expect(await to.size(b.sha256)).toBe(b.size);
    expect(await migrateBlobs(from, to)).toMatchObject({ copied: 0, skipped: 2 });

    const bad = await from.put(Readable.from([Buffer.from('original')]), { maxBytes: -1 });
    await writeFile(from.blobPath(bad.sha256), 'tampered');
    await expect(migrateBlobs(from, to)).rejects.toThrow(`blob ${bad.sha256} is corrupt in the source`);
    expect(await to.size(bad.sha256)).toBeNull();
  });
});
