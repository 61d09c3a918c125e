/**
 * `cairn admin storage migrate` (the real CLI) moves a populated instance's package blobs and release attachment
 * blobs from local storage to a real MinIO server: packages-service and repo-service restarted on MinIO serve every
 * file; a rerun copies nothing.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minioMissing, startMinio, type RunningMinio } from '../support/minio.js';
import { createPackageUser, curl, genericFileUrl, startPackagesSuite, type PackageUser, type PackagesTestBed } from '../support/packages.js';
import { REPO_ROOT } from '../../scripts/suite.mjs';
import type { TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const missing = minioMissing();
let bed: PackagesTestBed;
let suite: TestSuite;
let minio: RunningMinio;
let alice: PackageUser;

beforeAll(async () => {
  if (missing) return;
  minio = await startMinio();
  bed = await startPackagesSuite({ ...FAST_PASSWORD_HASH });
  suite = bed.suite;
  alice = await createPackageUser(suite, bed.admin, 'alice', ['write:package', 'write:repository']);
});

afterAll(async () => {
  await bed?.stop();
  await minio?.stop();
});

/** The admin CLI with the suite's settings plus `env`; resolves with its exit code and output. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'apps/identity-service/dist/cli/cairn-cli.js'), ...args], {
      env: { ...process.env, ...suite.env, ...env },
    }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }));
  });
}

describe.skipIf(missing !== null)('cairn admin storage migrate', () => {
  it('copies every package blob to MinIO, verified; the service then serves them all from there; a rerun copies nothing', async () => {
    const files = [randomBytes(2 * 1024 * 1024 + 5), randomBytes(10), Buffer.from('same bytes'), Buffer.from('same bytes')];
    const urls = files.map((_, i) => genericFileUrl(suite, alice.username, 'migrate', '1.0.0', `f${i}.bin`));
    for (const [i, data] of files.entries()) {
      const res = await fetch(urls[i]!, { method: 'PUT', headers: { authorization: `token ${alice.token}` }, body: new Uint8Array(data) });
      expect(res.status).toBe(201);
    }
    const env = minio.env('migrated');

    expect((await cli(['admin', 'storage', 'migrate', '--from', 'local', '--to', 'local'], env)).code).toBe(1);
    expect((await cli(['admin', 'storage', 'migrate', '--from', 'local', '--to', 'minio', '--type', 'actions_log'], env)).out).toMatch(/only packages, attachments/);

    const first = await cli(['admin', 'storage', 'migrate', '--from', 'local', '--to', 'minio'], env);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/3 copied .*0 already there/);
    expect(await minio.objectCount('migrated', 'packages/blobs/')).toBe(3);
    const again = await cli(['admin', 'storage', 'migrate', '--from', 'local', '--to', 'minio'], env);
    expect(again.out).toMatch(/0 copied .*3 already there/);

    await suite.stopApp('packages-service');
    await suite.startApp('packages-service', env);
    for (const [i, data] of files.entries()) {
      let got = await curl([urls[i]!]);
      await waitFor(async () => (got = await curl([urls[i]!])).status !== 503, 'the gateway to reach packages-service again');
      expect(got.status).toBe(200);
      expect(createHash('sha256').update(got.body).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('copies every release attachment blob to MinIO, verified; repo-service then serves them from there; a rerun copies nothing', async () => {
    const api = (path: string, init: RequestInit = {}) => fetch(suite.api(path), {
      ...init, headers: { authorization: `token ${alice.token}`, 'content-type': 'application/json', ...init.headers },
    });
    const repo = 'migrated-assets';
    expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: repo, auto_init: true }) })).status).toBe(201);
    const release = await api(`/repos/${alice.username}/${repo}/releases`, { method: 'POST', body: JSON.stringify({ tag_name: 'v1' }) });
    const releaseId = ((await release.json()) as { id: number }).id;
    // Two attachments with the same bytes share one blob: three attachments, two blobs.
    const files = [randomBytes(1024 * 1024 + 3), Buffer.from('same'), Buffer.from('same')];
    const urls: string[] = [];
    for (const [i, data] of files.entries()) {
      const res = await api(`/repos/${alice.username}/${repo}/releases/${releaseId}/assets?name=a${i}.bin`, {
        method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(data),
      });
      expect(res.status).toBe(201);
      urls.push(((await res.json()) as { browser_download_url: string }).browser_download_url);
    }
    const env = minio.env('migrated');

    const first = await cli(['admin', 'storage', 'migrate', '--from', 'local', '--to', 'minio', '--type', 'attachments'], env);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/Migrated attachments from local to minio: 2 copied .*0 already there/);
    expect(await minio.objectCount('migrated', 'attachments/blobs/')).toBe(2);
    const again = await cli(['admin', 'storage', 'migrate', '--from', 'local', '--to', 'minio', '--type', 'attachments'], env);
    expect(again.out).toMatch(/0 copied .*2 already there/);

    await suite.stopApp('repo-service');
    // Nothing left on the local side: what is served next can only come from MinIO.
    rmSync(path.join(suite.dataDir, 'attachments', 'blobs'), { recursive: true, force: true });
    await suite.startApp('repo-service', env);
    for (const [i, data] of files.entries()) {
      let got = await fetch(urls[i]!);
      await waitFor(async () => (got = await fetch(urls[i]!)).status !== 503, 'the gateway to reach repo-service again');
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    }
  });
});
