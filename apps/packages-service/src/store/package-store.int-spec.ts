// PackageStore and the blob cleanup against real PostgreSQL and a real blob folder, including an upload that
// commits a blob while the cleanup wants to delete it.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ErrorCode, PackageEvents, type DomainError, type PackageEventData } from '@cairn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPackageStoreFixture, type PackageStoreFixture } from '../../../../test/support/package-store-fixture.js';
import type { PackagesSettings } from '../config/packages-settings.js';
import type { PrismaService } from '../prisma/prisma.service.js';
import { BlobCleanup } from '../storage/blob-cleanup.js';
import { BlobsRepository } from '../storage/blobs.repository.js';
import type { BlobStore, CommonSettings } from '@cairn/platform';
import { PackageStore } from './package-store.js';

const GRACE = 3_600_000;
let fixture: PackageStoreFixture;
let prisma: PrismaService;
let blobs: BlobStore;
let settings: PackagesSettings;
let store: PackageStore;
let cleanup: BlobCleanup;

beforeAll(async () => {
  fixture = await startPackageStoreFixture('pkgstore', { cleanupGraceMs: GRACE, cleanupIntervalMs: GRACE });
  ({ prisma, blobs, settings, store } = fixture);
  cleanup = new BlobCleanup(new BlobsRepository(prisma), blobs, settings, { databaseUrl: fixture.db.url } as CommonSettings);
});

afterAll(async () => {
  await fixture?.close();
});

async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a failure');
}

/** Uploads `data` as a file of a generic version, the way the registries do; answers the version and blob ids. */
async function upload(ownerId: number, name: string, version: string, filename: string, data: Buffer) {
  const staged = await blobs.stage(Readable.from([data]), { maxBytes: -1 });
  try {
    return await store.transaction(async (tx) => {
      const pkg = await store.getOrCreatePackage(tx, { ownerId, type: 'generic', name });
      const pv = await store.getOrCreateVersion(tx, { packageId: pkg.id, version, creatorId: ownerId });
      const blob = await store.commitBlob(tx, staged);
      await store.addFile(tx, { versionId: pv.id, blobId: blob.id, name: filename, isLead: true });
      return { pv, blob };
    });
  } finally {
    await blobs.discard(staged);
  }
}

const later = (ms: number) => new Date(Date.now() + ms);

describe('PackageStore', () => {
  it('records a version with its file and blob; the same file again is ALREADY_EXISTS and records nothing', async () => {
    const data = randomBytes(4096);
    const { pv, blob } = await upload(1, 'Tool', '1.0.0', 'a.bin', data);
    expect(await store.findPackage(1, 'generic', 'tool')).toMatchObject({ name: 'Tool', lowerName: 'tool' });
    expect(await store.findFile(pv.id, 'A.BIN')).toMatchObject({ name: 'a.bin', blobId: blob.id });
    const again = await failure(upload(1, 'tool', '1.0.0', 'a.bin', randomBytes(10)));
    expect(again.code).toBe(ErrorCode.ALREADY_EXISTS);
    expect(await store.countFiles(pv.id)).toBe(1);
    // A second version of the same content shares the blob.
    const second = await upload(1, 'tool', '1.0.1', 'a.bin', data);
    expect(second.blob.id).toBe(blob.id);
  });

  it('refuses a duplicate version created explicitly', async () => {
    const err = await failure(store.transaction(async (tx) => {
      const pkg = await store.getOrCreatePackage(tx, { ownerId: 2, type: 'npm', name: 'dup' });
      await store.createVersion(tx, { packageId: pkg.id, version: '1.0.0', creatorId: 2 });
      await store.createVersion(tx, { packageId: pkg.id, version: '1.0.0', creatorId: 2 });
    }));
    expect(err.code).toBe(ErrorCode.ALREADY_EXISTS);
    expect(await store.findPackage(2, 'npm', 'dup')).toBeNull();
  });

  it('counts an owner\'s bytes and enforces LIMIT_TOTAL_OWNER_SIZE and the per-type limits', async () => {
    await upload(3, 'q', '1', 'x', randomBytes(1000));
    expect(await store.ownerTotalSize(3)).toBe(1000);
    const limited = fixture.storeWith({ limitTotalOwnerSize: 1500, limitSizeGeneric: 700 });
    await expect(limited.checkOwnerQuota(3, 500)).resolves.toBeUndefined();
    expect((await failure(limited.checkOwnerQuota(3, 501))).code).toBe(ErrorCode.CONTENT_TOO_LARGE);
    expect(() => limited.checkFileSize('generic', 701)).toThrow(/LIMIT_SIZE_GENERIC/);
    expect(limited.maxFileBytes('npm')).toBe(-1);
  });

  it('writes package events in the transaction: created once per version, deleted with the doer; none when it rolls back', async () => {
    const outbox = async (name: string) =>
      (await prisma.outboxEvent.findMany({ orderBy: { createdAt: 'asc' } }))
        .filter((e) => (e.payload as unknown as { data: PackageEventData }).data.package.name === name)
        .map((e) => ({ subject: e.subject, data: (e.payload as unknown as { data: PackageEventData }).data }));
    const { pv } = await upload(1, 'evented', '1.0.0', 'a', randomBytes(8));
    await upload(1, 'evented', '1.0.0', 'b', randomBytes(8)); // a second file of the version: no second event
    expect(await failure(upload(1, 'evented', '1.0.0', 'a', randomBytes(8)))).toMatchObject({ code: ErrorCode.ALREADY_EXISTS });
    await store.transaction((tx) => store.deleteVersion(tx, pv, 2));
    const rows = await outbox('evented');
    expect(rows.map((r) => r.subject)).toEqual([PackageEvents.versionCreated, PackageEvents.versionDeleted]);
    expect(rows[0].data).toMatchObject({
      action: 'created', ownerId: 1, repository: null, sender: { login: 'alice' },
      package: { id: pv.id, type: 'generic', name: 'evented', version: '1.0.0', owner: { login: 'alice' }, creator: { login: 'alice' } },
    });
    expect(rows[1].data).toMatchObject({ action: 'deleted', sender: { login: 'bob' }, package: { id: pv.id, version: '1.0.0' } });

    // A version whose transaction fails leaves no event behind.
    await failure(store.transaction(async (tx) => {
      const pkg = await store.getOrCreatePackage(tx, { ownerId: 1, type: 'npm', name: 'rolled-back' });
      await store.createVersion(tx, { packageId: pkg.id, version: '1.0.0', creatorId: 1 });
      throw new Error('the upload failed');
    }));
    expect(await outbox('rolled-back')).toEqual([]);
  });

  it('deletes a version with its files, and the package with its last version', async () => {
    const { pv } = await upload(4, 'gone', '1', 'f', randomBytes(10));
    await store.transaction((tx) => store.deleteVersion(tx, pv));
    expect(await store.findPackage(4, 'generic', 'gone')).toBeNull();
  });
});

describe('BlobCleanup', () => {
  it('deletes an unreferenced blob only after the grace period, then its bytes', async () => {
    const { pv, blob } = await upload(10, 'c1', '1', 'f', randomBytes(2048));
    await store.transaction((tx) => store.deleteVersion(tx, pv));
    const first = await cleanup.sweep(new Date());
    expect(first?.marked).toBeGreaterThanOrEqual(1);
    expect(await blobs.size(blob.hashSha256)).toBe(2048);
    const second = await cleanup.sweep(later(GRACE + 60_000));
    expect(second?.deleted).toBeGreaterThanOrEqual(1);
    expect(await prisma.packageBlob.findUnique({ where: { id: blob.id } })).toBeNull();
    expect(await blobs.size(blob.hashSha256)).toBeNull();
  });

  it('keeps a marked blob that an upload referenced again before the sweep', async () => {
    const data = randomBytes(1024);
    const { pv, blob } = await upload(11, 'c2', '1', 'f', data);
    await store.transaction((tx) => store.deleteVersion(tx, pv));
    await cleanup.sweep(new Date());
    expect((await prisma.packageBlob.findUniqueOrThrow({ where: { id: blob.id } })).unreferencedSince).not.toBeNull();
    await upload(11, 'c2', '2', 'f', data);
    await cleanup.sweep(later(GRACE + 60_000));
    expect(await prisma.packageBlob.findUnique({ where: { id: blob.id } })).not.toBeNull();
    expect(await blobs.size(blob.hashSha256)).toBe(1024);
  });

  it('never loses a blob an upload commits while the sweep wants to delete it (the blob lock)', async () => {
    const data = randomBytes(3000);
    const { pv, blob } = await upload(12, 'c3', '1', 'f', data);
    await store.transaction((tx) => store.deleteVersion(tx, pv));
    await cleanup.sweep(new Date());
    // An upload of the same content holds the blob's lock (its commit in progress) while the sweep starts.
    const staged = await blobs.stage(Readable.from([data]), { maxBytes: -1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const uploading = store.transaction(async (tx) => {
      const pkg = await store.getOrCreatePackage(tx, { ownerId: 12, type: 'generic', name: 'c3' });
      const v = await store.getOrCreateVersion(tx, { packageId: pkg.id, version: '2', creatorId: 12 });
      // Its bytes are in place and its row upserted, not yet committed nor referenced by a file.
      const row = await store.commitBlob(tx, staged);
      locked();
      await held;
      await store.addFile(tx, { versionId: v.id, blobId: row.id, name: 'f' });
    });
    await lockTaken;
    const sweeping = cleanup.sweep(later(GRACE + 60_000));
    // The sweep is now waiting for the lock (or has not reached this blob yet); let the upload finish.
    release();
    await uploading;
    await sweeping;
    const row = await prisma.packageBlob.findUnique({ where: { hashSha256: blob.hashSha256 }, include: { files: true } });
    expect(row?.files).toHaveLength(1);
    expect(await blobs.size(blob.hashSha256)).toBe(3000);
  });

  it('deletes stored bytes that have no row (a crash between rename and commit) and stale temporary files', async () => {
    const orphan = await blobs.put(Readable.from([randomBytes(500)]), { maxBytes: -1 });
    const fresh = await cleanup.sweep(new Date());
    expect(fresh?.orphans).toBe(0);
    expect(await blobs.size(orphan.sha256)).toBe(500);
    const res = await cleanup.sweep(later(GRACE + 60_000));
    expect(res?.orphans).toBeGreaterThanOrEqual(1);
    expect(await blobs.size(orphan.sha256)).toBeNull();
    expect(await readdir(blobs.tempDir)).toEqual([]);
  });
});
