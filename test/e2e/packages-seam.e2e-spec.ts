// The packages seam end to end: the gateway authenticates the caller and streams a generic package upload to
// packages-service, which stores it as a content-addressed blob; the download streams the same bytes back.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageUser, genericFileUrl, type PackageUser } from '../support/packages.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';

describe('package registries through the gateway', () => {
  let suite: TestSuite;
  let alice: PackageUser;

  beforeAll(async () => {
    suite = await sharedTestSuite();
    const admin = await suite.createAdmin();
    alice = await createPackageUser(suite, admin, 'alice');
  });

  afterAll(async () => {
    await suite?.stop();
  });

  it('streams an upload to packages-service and the same bytes back', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const url = genericFileUrl(suite, alice.username, 'seam', '1.0.0', 'blob.bin');
    const put = await fetch(url, { method: 'PUT', headers: { authorization: `token ${alice.token}` }, body: bytes });
    expect(put.status, await put.clone().text()).toBe(201);

    const get = await fetch(url);
    expect(get.status).toBe(200);
    const got = Buffer.from(await get.arrayBuffer());
    expect(got.equals(bytes)).toBe(true);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(get.headers.get('content-length')).toBe(String(bytes.length));
    expect(get.headers.get('etag')).toBe(`"${sha256}"`);
  });

  it('refuses bad credentials at the gateway in the registry format', async () => {
    const url = genericFileUrl(suite, alice.username, 'seam', '1.0.0', 'blob.bin');
    const res = await fetch(url, { headers: { authorization: 'token cairn_not-a-real-token' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
  });
});
