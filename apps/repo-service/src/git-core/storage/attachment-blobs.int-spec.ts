// Release attachment bytes in their blob store, on both backends (a temporary folder, and a real MinIO server started
// here), over a scratch database with repo-service's migrations: the row names its blob, failures and deletions leave
// no blob unnamed, the sweep removes what a crash left, and files of the old layout move into the store.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, openBlobStore, type BlobStore, type CommonSettings } from '@cairn/platform';
import { minioMissing, startMinio, type RunningMinio } from '../../../../../test/support/minio.js';
import { createScratchDatabase, type ScratchDatabase } from '../../../../../test/support/integration.js';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';
import { AttachmentBlobs } from './attachment-blobs.js';
import { AttachmentBlobsRepository } from './attachment-blobs.repository.js';

const DAY = 24 * 3600_000;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function readAll(stream: Readable | null): Promise<Buffer> {
  if (!stream) throw new Error('no stream');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const missing = minioMissing();
let minio: RunningMinio | undefined;
let db: ScratchDatabase;
let prisma: PrismaService;
let repoId: number;
let releaseId: number;
const dirs: string[] = [];

beforeAll(async () => {
  db = await createScratchDatabase('attachments', { services: ['repo'] });
  prisma = new PrismaService({ databaseUrl: db.url } as CommonSettings);
  await prisma.$connect();
  const repo = await prisma.repository.create({
    data: { ownerId: 1, ownerName: 'alice', ownerLowerName: 'alice', ownerKind: 'user', name: 'demo', lowerName: 'demo', defaultBranch: 'main' },
  });
  repoId = repo.id;
  releaseId = (await prisma.release.create({ data: { repoId, tagName: 'v1', lowerTagName: 'v1', publisherId: 1 } })).id;
  if (!missing) minio = await startMinio();
}, 600_000);

afterAll(async () => {
  await minio?.stop();
  await prisma?.$disconnect();
  await db?.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Inserts an attachment row naming `sha`, in `tx` (as the releases' repository does). */
function insertRow(tx: Tx, sha: string | null, size: number, uuid = randomUUID()) {
  return tx.releaseAttachment.create({ data: { uuid, repoId, releaseId, uploaderId: 1, name: 'f.bin', size: BigInt(size), sha256: sha } });
}

for (const kind of ['local', 'minio'] as const) {
  describe.skipIf(kind === 'minio' && missing !== null)(`attachment blobs on ${kind} storage`, () => {
    let root: string;
    let store: BlobStore;
    let blobs: AttachmentBlobs;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'cairn-it-attachments-'));
      dirs.push(root);
      const env = kind === 'local' ? {} : minio!.env(`attachments-${randomBytes(4).toString('hex')}`);
      store = await openBlobStore('attachments', root, env);
      blobs = new AttachmentBlobs(new AttachmentBlobsRepository(prisma), store, root, { databaseUrl: db.url } as CommonSettings);
    });

    async function upload(data: Buffer) {
      const staged = await blobs.stage(Readable.from([data]), 1024 * 1024);
      return blobs.commitNamed(staged, (tx) => insertRow(tx, staged.sha256, staged.size));
    }

    it('commits the blob with the row naming it, serves it whole and by range, keeps it while any row names it', async () => {
      const data = randomBytes(100_000);
      const first = await upload(data);
      const second = await upload(data);
      expect(first.sha256).toBe(sha256(data));
      expect(await blobs.find(repoId, first.uuid)).toEqual({ sha256: sha256(data), size: data.length, name: 'f.bin' });
      expect((await readAll(await blobs.open(sha256(data)))).equals(data)).toBe(true);
      expect((await readAll(await blobs.open(sha256(data), { start: 10, end: 19 }))).equals(data.subarray(10, 20))).toBe(true);

      await prisma.releaseAttachment.delete({ where: { id: first.id } });
      await blobs.release([sha256(data)]);
      expect(await store.size(sha256(data))).toBe(data.length);
      await prisma.releaseAttachment.delete({ where: { id: second.id } });
      await blobs.release([sha256(data)]);
      expect(await store.size(sha256(data))).toBeNull();
    });

    it('refuses past the limit and keeps nothing', async () => {
      await expect(blobs.stage(Readable.from([randomBytes(2048)]), 1024)).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await store.removeStaleTemp(new Date(Date.now() + DAY))).toBe(0);
    });

    it('leaves no unnamed blob when the row cannot be written', async () => {
      const data = randomBytes(5000);
      const staged = await blobs.stage(Readable.from([data]), 1024 * 1024);
      await expect(blobs.commitNamed(staged, async () => {
        throw new Error('the release went away');
      })).rejects.toThrow('the release went away');
      expect(await store.size(sha256(data))).toBeNull();
    });

    it('sweeps blobs no row names and stale temporary files once they are older than the grace period', async () => {
      const orphan = randomBytes(3000);
      await store.put(Readable.from([orphan]), { maxBytes: -1 });
      const kept = randomBytes(3000);
      await upload(kept);
      expect(await blobs.sweep(new Date())).toEqual({ orphans: 0, temps: 0 });
      expect(await store.size(sha256(orphan))).toBe(orphan.length);

      const later = await blobs.sweep(new Date(Date.now() + 2 * DAY));
      expect(later.orphans).toBe(1);
      expect(await store.size(sha256(orphan))).toBeNull();
      expect(await store.size(sha256(kept))).toBe(kept.length);
    });

    it('moves files of the old layout (<root>/<repo id>/<uuid>) into the store and names their blobs; strays go', async () => {
      const data = randomBytes(20_000);
      const uuid = randomUUID();
      await prisma.$transaction((tx) => insertRow(tx, null, data.length, uuid));
      mkdirSync(join(root, String(repoId)), { recursive: true });
      writeFileSync(join(root, String(repoId), uuid), data);
      writeFileSync(join(root, String(repoId), randomUUID()), 'a stray of a failed deletion');
      expect(await blobs.find(repoId, uuid)).toBeNull();

      expect(await blobs.moveLegacyFiles()).toBe(1);
      expect(existsSync(join(root, String(repoId)))).toBe(false);
      const found = await blobs.find(repoId, uuid);
      expect(found?.sha256).toBe(sha256(data));
      expect((await readAll(await blobs.open(found!.sha256))).equals(data)).toBe(true);
      expect(await blobs.moveLegacyFiles()).toBe(0);
      expect(readdirSync(root).filter((n) => /^\d+$/.test(n))).toEqual([]);
    });
  });
}
