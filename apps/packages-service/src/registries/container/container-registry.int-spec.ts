// The container registry's rules against real PostgreSQL and a real blob folder, stored as Gitea stores them.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPackageStoreFixture, type PackageStoreFixture } from '../../../../../test/support/package-store-fixture.js';
import type { PrismaService } from '../../prisma/prisma.service.js';
import { ContainerRegistryService, type ImageRef } from './container-registry.service.js';
import { ContainerRepository, Props, UPLOAD_VERSION } from './container.repository.js';
import { MediaTypes } from './oci-manifest.js';

let fixture: PackageStoreFixture;
let prisma: PrismaService;
let service: ContainerRegistryService;
/** LIMIT_SIZE_CONTAINER of this test: manifests fit, the chunked upload below reaches it exactly. */
const LIMIT = 1024;
const ref: ImageRef = { ownerId: 7, owner: 'alice', image: 'tool' };
const hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const digest = (b: Buffer | string) => `sha256:${hex(b)}`;

beforeAll(async () => {
  fixture = await startPackageStoreFixture('oci', { limitSizeContainer: LIMIT });
  prisma = fixture.prisma;
  service = new ContainerRegistryService(fixture.store, new ContainerRepository(prisma));
});

afterAll(async () => {
  await fixture?.close();
});

const versionsOf = (image: string) =>
  prisma.packageVersion.findMany({
    where: { package: { ownerId: ref.ownerId, type: 'container', lowerName: image } },
    include: { files: { include: { blob: true } } },
    orderBy: { id: 'asc' },
  });

const props = (refType: string, refId: number) =>
  prisma.packageProperty.findMany({ where: { refType, refId }, select: { name: true, value: true }, orderBy: { id: 'asc' } });

describe('container registry rules', () => {
  const config = Buffer.from('{"os":"linux","architecture":"arm64"}');
  const layer = Buffer.from('layer bytes');
  const manifest = Buffer.from(JSON.stringify({
    schemaVersion: 2,
    mediaType: MediaTypes.ociManifest,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digest(config), size: config.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: digest(layer), size: layer.length }],
  }));

  it('keeps pushed blobs in the internal _upload version until a manifest takes them', async () => {
    await service.uploadMonolithic(ref, 1, digest(config), Readable.from([config]));
    await service.uploadMonolithic(ref, 1, digest(layer), Readable.from([layer]));
    const [uploads] = await versionsOf('tool');
    expect(uploads).toMatchObject({ version: UPLOAD_VERSION, isInternal: true });
    expect(uploads.files.map((f) => f.name).sort()).toEqual([`sha256_${hex(config)}`, `sha256_${hex(layer)}`].sort());

    const stored = await service.putManifest(ref, 1, { kind: 'tag', tag: 'V1' }, manifest, MediaTypes.ociManifest);
    expect(stored.digest).toBe(digest(manifest));
    const versions = await versionsOf('tool');
    // The _upload version emptied and went; the tag's version holds config, layer and the manifest (lead).
    expect(versions.map((v) => v.version)).toEqual(['v1']);
    expect(versions[0].metadata).toMatchObject({ type: 'oci', is_tagged: true, platform: 'linux/arm64' });
    const lead = versions[0].files.find((f) => f.isLead)!;
    expect(lead.name).toBe('manifest.json');
    expect(await props('file', lead.id)).toEqual([
      { name: Props.digest, value: digest(manifest) },
      { name: Props.mediaType, value: MediaTypes.ociManifest },
    ]);
    expect(await props('version', versions[0].id)).toEqual([{ name: Props.tagged, value: '' }]);
    expect(versions[0].files).toHaveLength(3);
  });

  it('an index refers to manifests by digest; deleting by digest removes every version holding it', async () => {
    // The same manifest again, untagged (by digest): a second version named by the digest.
    await service.putManifest(ref, 1, { kind: 'digest', digest: digest(manifest) }, manifest, MediaTypes.ociManifest);
    const index = Buffer.from(JSON.stringify({
      schemaVersion: 2,
      mediaType: MediaTypes.ociIndex,
      manifests: [{ mediaType: MediaTypes.ociManifest, digest: digest(manifest), size: manifest.length, platform: { os: 'linux', architecture: 'arm64' } }],
    }));
    const stored = await service.putManifest(ref, 1, { kind: 'tag', tag: 'multi' }, index, MediaTypes.ociIndex);
    const multi = (await versionsOf('tool')).find((v) => v.version === 'multi')!;
    expect(multi.files).toHaveLength(1);
    expect(multi.metadata).toMatchObject({ manifests: [{ platform: 'linux/arm64', digest: digest(manifest) }] });
    expect(await props('version', multi.id)).toEqual([
      { name: Props.tagged, value: '' },
      { name: Props.manifestReference, value: digest(manifest) },
    ]);
    expect((await service.manifest(ref, { kind: 'digest', digest: stored.digest })).versionId).toBe(multi.id);

    await service.deleteManifest(ref, { kind: 'digest', digest: digest(manifest) }, null);
    expect((await versionsOf('tool')).map((v) => v.version)).toEqual(['multi']);
    await expect(service.deleteManifest(ref, { kind: 'tag', tag: 'v1' }, null)).rejects.toMatchObject({ code: 'MANIFEST_UNKNOWN' });
    await service.deleteManifest(ref, { kind: 'tag', tag: 'multi' }, null);
    expect(await versionsOf('tool')).toEqual([]);
  });

  it('a chunk over LIMIT_SIZE_CONTAINER is 413 and the session keeps the bytes it had', async () => {
    const session = await service.startUpload(ref);
    const first = Buffer.alloc(600, 1);
    expect(await service.appendChunk(session, Readable.from([first]), { start: 0, end: 599 }, 600)).toBe(600);
    session.bytesReceived = 600n;
    await expect(service.appendChunk(session, Readable.from([Buffer.alloc(500, 2)]), { start: 600, end: 1099 }, 500))
      .rejects.toMatchObject({ code: 'SIZE_INVALID', status: 413 });
    const last = Buffer.alloc(LIMIT - 600, 3);
    expect(await service.appendChunk(session, Readable.from([last]), 'end', undefined)).toBe(LIMIT);
    session.bytesReceived = BigInt(LIMIT);
    const whole = Buffer.concat([first, last]);
    await service.finishUpload(ref, 1, session, digest(whole));
    expect((await service.blob(ref, digest(whole))).size).toBe(LIMIT);
    await expect(service.upload(ref, session.id)).rejects.toMatchObject({ code: 'BLOB_UPLOAD_UNKNOWN' });
  });

  it('a stale chunk (another one moved the session first) is refused', async () => {
    const session = await service.startUpload(ref);
    const stale = { ...session };
    await service.appendChunk(session, Readable.from([Buffer.from('abc')]), { start: 0, end: 2 }, 3);
    await expect(service.appendChunk(stale, Readable.from([Buffer.from('xyz')]), { start: 0, end: 2 }, 3))
      .rejects.toMatchObject({ code: 'RANGE_INVALID' });
  });
});
