/**
 * `[storage] SERVE_DIRECT = true` on a real MinIO server: package and release attachment downloads answer a redirect
 * to a presigned URL on MinIO (303 for generic and npm files and attachments, 307 for container layers, as Gitea),
 * which the real clients follow — curl (bytes, a range, the file name), skopeo (a whole image). Access is still
 * decided by Cairn before any redirect.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minioMissing, theRunningMinio } from '../support/minio.js';
import { buildImageLayout, readLayoutBlob, skopeo } from '../support/oci-layout.js';
import { createPackageUser, curl, genericFileUrl, startPackagesSuite, type PackageUser, type PackagesTestBed } from '../support/packages.js';
import { createToken } from '../support/session.js';
import type { TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const missing = minioMissing();
let bed: PackagesTestBed;
let suite: TestSuite;
let alice: PackageUser;
let carol: PackageUser;
const work = mkdtempSync(path.join(tmpdir(), 'cairn-direct-e2e-'));

beforeAll(async () => {
  if (missing) return;
  process.env.CAIRN_E2E_STORAGE = 'minio';
  bed = await startPackagesSuite({ ...FAST_PASSWORD_HASH, CAIRN__STORAGE__SERVE_DIRECT: 'true' });
  suite = bed.suite;
  alice = await createPackageUser(suite, bed.admin, 'alice');
  carol = await createPackageUser(suite, bed.admin, 'carol', ['write:package'], { visibility: 'private' });
});

afterAll(async () => {
  await bed?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(missing !== null)('SERVE_DIRECT on MinIO', () => {
  it('redirects a generic file download to MinIO; curl -L gets the bytes, a range and the file name', async () => {
    const data = randomBytes(300_000);
    const file = path.join(work, 'upload.bin');
    writeFileSync(file, data);
    const url = genericFileUrl(suite, alice.username, 'direct', '1.0.0', 'tool-1.bin');
    expect((await curl(['--user', `${alice.username}:${alice.token}`, '--upload-file', file, url])).status).toBe(201);

    const redirect = await curl([url]);
    expect(redirect.status).toBe(303);
    const location = new URL(redirect.headers.location!);
    expect(location.host).toBe(theRunningMinio().endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(redirect.body.length).toBe(0);

    const followed = await curl(['-L', url]);
    expect(followed.status).toBe(200);
    expect(followed.body.equals(data)).toBe(true);
    expect(followed.headers['content-disposition']).toContain('filename="tool-1.bin"');
    const part = await curl(['-L', '-r', '1000-1999', url]);
    expect(part.status).toBe(206);
    expect(part.body.equals(data.subarray(1000, 2000))).toBe(true);
    // HEAD is answered by Cairn itself, with the size and digests.
    const head = await curl(['-I', url]);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(data.length));
  });

  it('decides access before redirecting: a private owner\'s file is refused to others (403), with no URL given away', async () => {
    const url = genericFileUrl(suite, carol.username, 'secret', '1', 'f.txt');
    expect((await curl(['-H', `Authorization: token ${carol.token}`, '-X', 'PUT', '--data-binary', 'hidden', url])).status).toBe(201);
    const stranger = await curl(['-H', `Authorization: token ${alice.token}`, url]);
    expect(stranger.status).toBe(403);
    expect(stranger.headers.location).toBeUndefined();
    const own = await curl(['-L', '-H', `Authorization: token ${carol.token}`, url]);
    expect(own.body.toString()).toBe('hidden');
  });

  it('redirects container layers with 307, and skopeo pulls the image whole through the redirects', async () => {
    const host = new URL(suite.baseUrl).host;
    const src = path.join(work, 'src-layout');
    const image = buildImageLayout(src, 'v1');
    const creds = `${alice.username}:${alice.password}`;
    const pushed = await skopeo(['copy', '--dest-tls-verify=false', '--dest-creds', creds, `oci:${src}:v1`, `docker://${host}/${alice.username}/direct:v1`]);
    expect(pushed.code, pushed.stderr).toBe(0);

    const token = await fetch(`${suite.baseUrl}/v2/token`, { headers: { authorization: `Basic ${Buffer.from(creds).toString('base64')}` } });
    const bearer = `Bearer ${((await token.json()) as { token: string }).token}`;
    const layer = image.layers[0]!;
    const res = await fetch(`${suite.baseUrl}/v2/${alice.username}/direct/blobs/${layer.digest}`, { headers: { authorization: bearer }, redirect: 'manual' });
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get('location')!).host).toBe(theRunningMinio().endpoint);

    const dst = path.join(work, 'dst-layout');
    const pulled = await skopeo(['copy', '--src-tls-verify=false', '--src-creds', creds, `docker://${host}/${alice.username}/direct:v1`, `oci:${dst}:v1`]);
    expect(pulled.code, pulled.stderr).toBe(0);
    for (const d of [image.config, ...image.layers]) expect(readLayoutBlob(dst, d.digest).equals(readLayoutBlob(src, d.digest)), d.digest).toBe(true);
  });

  it('redirects a release attachment download to MinIO (303) once access is decided; curl -L gets the bytes and a range', async () => {
    const token = await createToken(suite, alice, ['write:repository']);
    const api = (p: string, init: RequestInit = {}) => fetch(suite.api(p), {
      ...init, headers: { authorization: `token ${token}`, 'content-type': 'application/json', ...init.headers },
    });
    expect((await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'direct-assets', auto_init: true, private: true }) })).status).toBe(201);
    const release = await api(`/repos/${alice.username}/direct-assets/releases`, { method: 'POST', body: JSON.stringify({ tag_name: 'v1' }) });
    const data = randomBytes(200_000);
    const uploaded = await api(`/repos/${alice.username}/direct-assets/releases/${((await release.json()) as { id: number }).id}/assets?name=tool.bin`, {
      method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(data),
    });
    expect(uploaded.status).toBe(201);
    const url = ((await uploaded.json()) as { browser_download_url: string }).browser_download_url;

    const redirect = await curl(['-H', `Authorization: token ${token}`, url]);
    expect(redirect.status).toBe(303);
    expect(new URL(redirect.headers.location!).host).toBe(theRunningMinio().endpoint);
    const followed = await curl(['-L', '-H', `Authorization: token ${token}`, url]);
    expect(followed.status).toBe(200);
    expect(followed.body.equals(data)).toBe(true);
    expect(followed.headers['content-disposition']).toContain('filename="tool.bin"');
    const part = await curl(['-L', '-r', '100-199', '-H', `Authorization: token ${token}`, url]);
    expect(part.status).toBe(206);
    expect(part.body.equals(data.subarray(100, 200))).toBe(true);
    // A private repository's attachment: no URL for outsiders.
    const stranger = await curl([url]);
    expect(stranger.status).not.toBe(200);
    expect(stranger.headers.location ?? '').not.toContain(theRunningMinio().endpoint);
  });
});
