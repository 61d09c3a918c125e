import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

let root: string;
let store: FsBlobStore;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cairn-blobs-'));
  store = new FsBlobStore(root);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const hex = (algo: string, data: Buffer) => createHash(algo).update(data).digest('hex');

const chunked = (data: Buffer) => Readable.from((function* () {
  for (let i = 0; i < data.length; i += 65_536) yield data.subarray(i, i + 65_536);
})());

describe('FsBlobStore', () => {
  it('stores streamed content once under its sha256 with all four digests, and reads it back', async () => {
    const data = randomBytes(1024 * 1024 + 3);
    const blob = await store.put(chunked(data), { maxBytes: -1 });
    expect(blob).toEqual({
      size: data.length, md5: hex('md5', data), sha1: hex('sha1', data), sha256: hex('sha256', data), sha512: hex('sha512', data),
    });
    expect(store.blobPath(blob.sha256)).toBe(path.join(root, 'blobs', blob.sha256.slice(0, 2), blob.sha256.slice(2, 4), blob.sha256));
    expect((await readAll((await store.open(blob.sha256))!)).equals(data)).toBe(true);
    expect(await store.size(blob.sha256)).toBe(data.length);
    await store.put(Readable.from([data]), { maxBytes: -1 });
    expect(await readdir(path.dirname(store.blobPath(blob.sha256)))).toEqual([blob.sha256]);
    expect(await readdir(store.tempDir)).toEqual([]);
  });

  it('hashes and writes content larger than its slab ring, in odd chunks, and concurrent uploads apart', async () => {
    // 4 slabs of 1 MiB are reused: 9 MiB + a few bytes in 100,003-byte chunks crosses every slab boundary unaligned.
    const big = randomBytes(9 * 1024 * 1024 + 17);
    const odd = Readable.from((function* () {
      for (let i = 0; i < big.length; i += 100_003) yield big.subarray(i, i + 100_003);
    })());
    const small = randomBytes(3000);
    const [a, b, c] = await Promise.all([
      store.stage(odd, { maxBytes: -1 }),
      store.stage(chunked(small), { maxBytes: -1 }),
      store.stage(Readable.from([]), { maxBytes: -1 }),
    ]);
    expect(a).toMatchObject({ size: big.length, md5: hex('md5', big), sha1: hex('sha1', big), sha256: hex('sha256', big), sha512: hex('sha512', big) });
    expect(b).toMatchObject({ size: small.length, md5: hex('md5', small), sha512: hex('sha512', small) });
    expect(c).toMatchObject({ size: 0, sha256: hex('sha256', Buffer.alloc(0)), md5: hex('md5', Buffer.alloc(0)) });
    await store.commit(a);
    expect((await readAll((await store.open(a.sha256))!)).equals(big)).toBe(true);
    await Promise.all([store.discard(b), store.discard(c), store.remove(a.sha256)]);
    expect(await readdir(store.tempDir)).toEqual([]);
  });

  it('refuses content crossing the limit after several slabs were written, keeping nothing', async () => {
    const data = randomBytes(6 * 1024 * 1024);
    await expect(store.stage(chunked(data), { maxBytes: 5 * 1024 * 1024 + 1 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await readdir(store.tempDir)).toEqual([]);
    // The hashing threads are still in service after the refused upload.
    const after = await store.put(Readable.from([data.subarray(0, 10)]), { maxBytes: -1 });
    expect(after.sha1).toBe(hex('sha1', data.subarray(0, 10)));
    await store.remove(after.sha256);
  });

  it('reads a byte range', async () => {
    const data = randomBytes(10_000);
    const blob = await store.put(Readable.from([data]), { maxBytes: -1 });
    const part = await readAll((await store.open(blob.sha256, { start: 100, end: 199 }))!);
    expect(part.equals(data.subarray(100, 200))).toBe(true);
  });

  it('refuses content over the limit and keeps nothing of it', async () => {
    const data = randomBytes(5000);
    await expect(store.put(chunked(data), { maxBytes: 4999 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store.open(hex('sha256', data))).toBeNull();
    expect(await readdir(store.tempDir)).toEqual([]);
  });

  it('keeps nothing of an upload whose stream fails midway', async () => {
    const failing = new Readable({ read() {} });
    failing.push(randomBytes(1000));
    const staged = store.stage(failing, { maxBytes: -1 });
    setImmediate(() => failing.destroy(new Error('client went away')));
    await expect(staged).rejects.toThrow('client went away');
    expect(await readdir(store.tempDir)).toEqual([]);
  });

  it('makes staged content visible only when committed', async () => {
    const data = randomBytes(2048);
    const staged = await store.stage(Readable.from([data]), { maxBytes: -1 });
    expect(await store.open(staged.sha256)).toBeNull();
    await store.commit(staged);
    expect((await readAll((await store.open(staged.sha256))!)).equals(data)).toBe(true);
    await store.remove(staged.sha256);
    expect(await store.open(staged.sha256)).toBeNull();
  });

  it('refuses addresses that are not sha256 digests (no path from other input)', async () => {
    await expect(store.open('../../etc/passwd')).rejects.toThrow(/not a sha256/);
    expect(() => store.blobPath('A'.repeat(64))).toThrow(/not a sha256/);
  });

  it('removes temporary files older than a cut-off, and only those', async () => {
    const old = path.join(await store.tempDir, 'old.part');
    const fresh = path.join(store.tempDir, 'fresh.part');
    await writeFile(old, 'x');
    await writeFile(fresh, 'y');
    const longAgo = new Date(Date.now() - 3 * 3600_000);
    await utimes(old, longAgo, longAgo);
    expect(await store.removeStaleTemp(new Date(Date.now() - 3600_000))).toBe(1);
    expect(await readdir(store.tempDir)).toEqual(['fresh.part']);
  });
});
