/**
 * An upload survives packages-service dying in the middle of it: SIGKILL while the bytes stream in leaves no
 * version, no file and no blob — only a temporary file, which the storage cleanup of the restarted service removes.
 * Then `[packages] ENABLED = false`: every registry answers 404.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackageUser, curl, genericFileUrl, startEndlessUpload, startPackagesSuite, type PackageUser, type PackagesTestBed,
} from '../support/packages.js';
import type { TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

let bed: PackagesTestBed;
let suite: TestSuite;
let db: pg.Client;
let alice: PackageUser;

const tempDir = () => path.join(suite.dataDir, 'packages', 'tmp');
const partialBytes = () => {
  try {
    return readdirSync(tempDir()).reduce((n, f) => n + statSync(path.join(tempDir(), f)).size, 0);
  } catch {
    return 0;
  }
};

beforeAll(async () => {
  bed = await startPackagesSuite({ ...FAST_PASSWORD_HASH });
  ({ suite, db } = bed);
  alice = await createPackageUser(suite, bed.admin, 'alice');
});

afterAll(async () => {
  await bed?.stop();
});

describe('packages-service killed during an upload', () => {
  it('leaves no partial version, and the cleanup removes the temporary file', async () => {
    const url = new URL(genericFileUrl(suite, alice.username, 'crash', '1.0.0', 'big.bin'));
    const upload = startEndlessUpload(url, alice.token);
    await waitFor(() => partialBytes() > 1024 * 1024, 'the upload to reach packages-service\'s temporary file');
    await suite.stopApp('packages-service', { signal: 'SIGKILL' });
    expect(await upload.stop()).not.toBe(201);

    const versions = await db.query(`SELECT v.id FROM packages.package_version v JOIN packages.package p ON p.id = v.package_id WHERE p.lower_name = 'crash'`);
    expect(versions.rows).toEqual([]);
    expect((await db.query('SELECT id FROM packages.package_blob')).rows).toEqual([]);
    expect(partialBytes()).toBeGreaterThan(0);

    await suite.startApp('packages-service', {
      CAIRN__PACKAGES__CLEANUP_GRACE_PERIOD: '1s',
      CAIRN__PACKAGES__CLEANUP_INTERVAL: '1s',
    });
    // The gateway may answer 503 for a moment while it finds the restarted service again; then: nothing was stored.
    let after = await curl([url.toString()]);
    await waitFor(async () => (after = await curl([url.toString()])).status !== 503, 'the gateway to reach packages-service again');
    expect(after.status).toBe(404);
    await waitFor(() => readdirSync(tempDir()).length === 0, 'the cleanup to remove the interrupted upload');
    // The registry works again.
    const put = await curl(['-H', `Authorization: token ${alice.token}`, '-X', 'PUT', '--data-binary', 'fine', url.toString()]);
    expect(put.status).toBe(201);
    expect((await curl([url.toString()])).body.toString()).toBe('fine');
  });

  it('answers 404 on every registry with [packages] ENABLED = false', async () => {
    await suite.stopApp('packages-service');
    await suite.startApp('packages-service', { CAIRN__PACKAGES__ENABLED: 'false' });
    const url = genericFileUrl(suite, alice.username, 'crash', '1.0.0', 'big.bin');
    const get = await curl([url]);
    expect(get.status, get.body.toString()).toBe(404);
    const put = await curl(['-H', `Authorization: token ${alice.token}`, '-X', 'PUT', '--data-binary', 'x', genericFileUrl(suite, alice.username, 'off', '1', 'f')]);
    expect(put.status).toBe(404);
    expect((await curl([`${suite.baseUrl}/v2/`])).status).toBe(404);
  });
});
