/**
 * On S3 storage (a real MinIO server), packages-service killed with SIGKILL in the middle of a large upload (parts
 * already sent to MinIO) leaves no version, no blob row and no object — only the upload's marker and its unfinished
 * multipart upload, which the restarted service's cleanup aborts. The filesystem twin is packages-crash.e2e-spec.ts.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minioMissing, theRunningMinio } from '../support/minio.js';
import {
  createPackageUser, curl, genericFileUrl, startEndlessUpload, startPackagesSuite, type PackageUser, type PackagesTestBed,
} from '../support/packages.js';
import type { TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const missing = minioMissing();
let bed: PackagesTestBed;
let suite: TestSuite;
let db: pg.Client;
let alice: PackageUser;

beforeAll(async () => {
  if (missing) return;
  process.env.CAIRN_E2E_STORAGE = 'minio';
  bed = await startPackagesSuite({ ...FAST_PASSWORD_HASH });
  ({ suite, db } = bed);
  alice = await createPackageUser(suite, bed.admin, 'alice');
});

afterAll(async () => {
  await bed?.stop();
});

describe.skipIf(missing !== null)('packages-service killed during an upload to S3', () => {
  it('leaves no partial version or object, and the cleanup aborts the unfinished multipart upload', async () => {
    const minio = theRunningMinio();
    const url = new URL(genericFileUrl(suite, alice.username, 'crash', '1.0.0', 'big.bin'));
    const upload = startEndlessUpload(url, alice.token);
    // Past two multipart parts (8 MiB each) and the sockets' buffers: MinIO has received parts of this upload.
    await waitFor(() => upload.sent() > 40 * 1024 * 1024, 'the upload to stream 40 MiB');
    await suite.stopApp('packages-service', { signal: 'SIGKILL' });
    expect(await upload.stop()).not.toBe(201);

    const versions = await db.query(`SELECT v.id FROM packages.package_version v JOIN packages.package p ON p.id = v.package_id WHERE p.lower_name = 'crash'`);
    expect(versions.rows).toEqual([]);
    expect((await db.query('SELECT id FROM packages.package_blob')).rows).toEqual([]);
    expect(await minio.objectCount('cairn', 'packages/blobs/')).toBe(0);
    const markers = await minio.objectKeys('cairn', 'packages/tmp/');
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatch(/\.uploading$/);
    const uploadKey = markers[0]!.replace(/\.uploading$/, '');
    expect(await minio.unfinishedUploads('cairn', uploadKey)).toBe(1);

    await suite.startApp('packages-service', {
      CAIRN__PACKAGES__CLEANUP_GRACE_PERIOD: '1s',
      CAIRN__PACKAGES__CLEANUP_INTERVAL: '1s',
    });
    let after = await curl([url.toString()]);
    await waitFor(async () => (after = await curl([url.toString()])).status !== 503, 'the gateway to reach packages-service again');
    expect(after.status).toBe(404);
    await waitFor(async () => (await minio.unfinishedUploads('cairn', uploadKey)) === 0 || null, 'the cleanup to abort the interrupted upload');
    expect(await minio.objectCount('cairn', 'packages/tmp/')).toBe(0);
    const put = await curl(['-H', `Authorization: token ${alice.token}`, '-X', 'PUT', '--data-binary', 'fine', url.toString()]);
    expect(put.status).toBe(201);
    expect((await curl([url.toString()])).body.toString()).toBe('fine');
    expect(await minio.objectCount('cairn', 'packages/blobs/')).toBe(1);
  });
});
