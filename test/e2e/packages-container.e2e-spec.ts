/**
 * The container registry (OCI distribution at `/v2/…`, Gitea's `/v2/token` flow) end to end: the real `skopeo`
 * pushes images built as OCI layouts on disk and pulls them back byte for byte (by tag, by digest, a two-platform
 * index with `--all`), inspects them and lists tags; protocol-level checks with fetch cover chunked uploads, mounts,
 * missing blobs, bad names and digests, and who may push and pull.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OCI_MANIFEST, buildImageLayout, buildIndexLayout, buildLayoutWithLayer, layoutEntry, readLayoutBlob, skopeo, skopeoAvailable,
  type BuiltImage,
} from '../support/oci-layout.js';
import { chromiumAvailable, launchBrowser, newPage, signIn } from '../support/browser.js';
import { createOrg, createTeam } from '../support/packages.js';
import { createToken, createUser, http, uniqueName, type Account } from '../support/session.js';
import { basicAuth, startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

/** A Buffer as a fetch body: a Uint8Array view (fetch's typing refuses Buffer's ArrayBufferLike once lib.dom is loaded). */
const bodyInit = (body: Buffer | string | undefined) => (typeof body === 'string' || body === undefined ? body : new Uint8Array(body));

const available = skopeoAvailable();
/** packages-container-s3 runs this file on MinIO, where the tests that store and serve no new blobs are skipped. */
const onObjectStorage = process.env.CAIRN_E2E_STORAGE === 'minio';
const localStorageOnly = it.skipIf(onObjectStorage);
if (!available) console.warn('\n!!! skopeo is not installed: the container registry e2e tests are SKIPPED (apt-get install skopeo)\n');

const errors = async (res: Response) => ((await res.json()) as { errors: { code: string; message: string }[] }).errors;
const errorCode = async (res: Response) => (await errors(res))[0].code;
const tagList = async (res: Response) => (await res.json()) as { name: string; tags: string[] };
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describe.skipIf(!available)('container registry (OCI distribution) with skopeo', () => {
  let suite: TestSuite;
  let host: string;
  let alice: Account;
  let stranger: Account;
  let hidden: Account;
  let aliceReadToken: string;
  const work = mkdtempSync(path.join(tmpdir(), 'cairn-oci-e2e-'));

  /** Any request to the registry (paths absolute: `/v2/…`). */
  const reg = (method: string, p: string, opts: { auth?: string; body?: Buffer | string; headers?: Record<string, string> } = {}) =>
    fetch(`${suite.baseUrl}${p}`, {
      method,
      headers: { ...(opts.auth ? { authorization: opts.auth } : {}), ...opts.headers },
      body: bodyInit(opts.body),
    });

  /** A registry bearer token for Basic credentials (or anonymous). */
  const bearer = async (basic?: string): Promise<string> => {
    const res = await reg('GET', '/v2/token', { auth: basic });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string };
    return `Bearer ${body.token}`;
  };

  const creds = (a: Account) => `${a.username}:${a.password}`;
  const push = (src: string, ref: string, a: Account, extra: string[] = []) =>
    skopeo(['copy', ...extra, '--dest-tls-verify=false', '--dest-creds', creds(a), src, `docker://${host}/${ref}`]);
  const pull = (ref: string, dst: string, a?: Account, extra: string[] = []) =>
    skopeo(['copy', ...extra, '--src-tls-verify=false', ...(a ? ['--src-creds', creds(a)] : ['--src-no-creds']), `docker://${host}/${ref}`, dst]);

  function expectSameImage(dst: string, src: string, image: BuiltImage): void {
    for (const d of [image.manifest, image.config, ...image.layers]) {
      expect(readLayoutBlob(dst, d.digest).equals(readLayoutBlob(src, d.digest)), d.digest).toBe(true);
    }
  }

  beforeAll(async () => {
    suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH } });
    host = new URL(suite.baseUrl).host;
    const admin = await suite.createAdmin();
    alice = await createUser(suite, admin, uniqueName('alice'));
    stranger = await createUser(suite, admin, uniqueName('stranger'));
    hidden = await createUser(suite, admin, uniqueName('hidden'), { visibility: 'private' });
    aliceReadToken = await createToken(suite, alice, ['read:package']);
  });

  afterAll(async () => {
    await suite?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  describe('token flow', () => {
    localStorageOnly('GET /v2/ asks for a bearer token from /v2/token; anonymous and signed-in tokens open it', async () => {
      const res = await reg('GET', '/v2/');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="${new URL(suite.rootUrl).origin}/v2/token",service="container_registry",scope="*"`,
      );
      expect(await res.json()).toEqual({ errors: [{ code: 'UNAUTHORIZED', message: expect.any(String) }] });
      for (const token of [await bearer(), await bearer(alice.basic), await bearer(basicAuth(alice.username, aliceReadToken))]) {
        const ok = await reg('GET', '/v2/', { auth: token });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
      }
    });

    localStorageOnly('refuses wrong credentials at /v2/token and forged or foreign bearer tokens', async () => {
      expect((await reg('GET', '/v2/token', { auth: basicAuth(alice.username, 'wrong-password') })).status).toBe(401);
      // An access token without a package scope gets no registry token (as Gitea).
      const notifications = await createToken(suite, alice, ['read:notification']);
      const noScope = await reg('GET', '/v2/token', { auth: basicAuth(alice.username, notifications) });
      expect(noScope.status).toBe(401);
      expect(noScope.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      const token = await bearer(alice.basic);
      const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      expect((await reg('GET', '/v2/', { auth: forged })).status).toBe(401);
    });
  });

  describe('skopeo', () => {
    let image: BuiltImage;
    let src: string;

    it('pushes an image by tag and pulls it back byte for byte (by tag and by digest)', async () => {
      src = path.join(work, 'app');
      image = buildImageLayout(src, 'v1', 'app');
      const pushed = await push(`oci:${src}:v1`, `${alice.username}/app:v1`, alice);
      expect(pushed.code, pushed.stderr).toBe(0);

      const byTag = path.join(work, 'app-by-tag');
      const pulled = await pull(`${alice.username}/app:v1`, `oci:${byTag}:v1`, alice);
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(layoutEntry(byTag, 'v1')?.digest).toBe(image.manifest.digest);
      expectSameImage(byTag, src, image);

      const byDigest = path.join(work, 'app-by-digest');
      const pulled2 = await pull(`${alice.username}/app@${image.manifest.digest}`, `oci:${byDigest}:x`, alice);
      expect(pulled2.code, pulled2.stderr).toBe(0);
      expectSameImage(byDigest, src, image);
    });

    it('inspects (digest, tags) and lists tags', async () => {
      expect((await push(`oci:${src}:v1`, `${alice.username}/app:v2`, alice)).code).toBe(0);
      const inspect = await skopeo(['inspect', '--tls-verify=false', '--creds', creds(alice), `docker://${host}/${alice.username}/app:v1`]);
      expect(inspect.code, inspect.stderr).toBe(0);
      const info = JSON.parse(inspect.stdout) as { Digest: string; RepoTags: string[]; Layers: string[] };
      expect(info.Digest).toBe(image.manifest.digest);
      expect(info.RepoTags).toEqual(['v1', 'v2']);
      expect(info.Layers).toEqual(image.layers.map((l) => l.digest));
      const tags = await skopeo(['list-tags', '--tls-verify=false', '--creds', creds(alice), `docker://${host}/${alice.username}/app`]);
      expect(tags.code, tags.stderr).toBe(0);
      expect(JSON.parse(tags.stdout)).toEqual({ Repository: `${host}/${alice.username}/app`, Tags: ['v1', 'v2'] });
    });

    it('pushes a two-platform image index with --all and pulls it back whole', async () => {
      const multiSrc = path.join(work, 'multi');
      const built = buildIndexLayout(multiSrc, 'latest', 'multi');
      const pushed = await push(`oci:${multiSrc}:latest`, `${alice.username}/multi:latest`, alice, ['--all']);
      expect(pushed.code, pushed.stderr).toBe(0);
      const raw = await skopeo(['inspect', '--raw', '--tls-verify=false', '--creds', creds(alice), `docker://${host}/${alice.username}/multi:latest`]);
      expect(Buffer.from(raw.stdout).equals(built.indexBytes)).toBe(true);
      const dst = path.join(work, 'multi-back');
      const pulled = await pull(`${alice.username}/multi:latest`, `oci:${dst}:latest`, alice, ['--all']);
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(layoutEntry(dst, 'latest')?.digest).toBe(built.index.digest);
      for (const img of built.images) expectSameImage(dst, multiSrc, img);
    });

    localStorageOnly('anonymous pulls of a public user’s image work; pushes need credentials with write access', async () => {
      const dst = path.join(work, 'anon');
      const pulled = await pull(`${alice.username}/app:v1`, `oci:${dst}:v1`);
      expect(pulled.code, pulled.stderr).toBe(0);
      expectSameImage(dst, src, image);

      const anon = await skopeo(['copy', '--dest-tls-verify=false', '--dest-no-creds', `oci:${src}:v1`, `docker://${host}/${alice.username}/app:anon`]);
      expect(anon.code).not.toBe(0);
      const denied = await push(`oci:${src}:v1`, `${alice.username}/app:stranger`, stranger);
      expect(denied.code).not.toBe(0);
      expect(denied.stderr).toMatch(/denied/i);
    });

    localStorageOnly('the stranger pulls a public image; a private user’s image is hidden from others', async () => {
      const own = await push(`oci:${src}:v1`, `${hidden.username}/secret:v1`, hidden);
      expect(own.code, own.stderr).toBe(0);
      const strangerPull = await pull(`${alice.username}/app:v1`, `oci:${path.join(work, 'stranger')}:v1`, stranger);
      expect(strangerPull.code, strangerPull.stderr).toBe(0);
      expect((await pull(`${hidden.username}/secret:v1`, `oci:${path.join(work, 'hidden1')}:v1`, stranger)).code).not.toBe(0);
      expect((await pull(`${hidden.username}/secret:v1`, `oci:${path.join(work, 'hidden2')}:v1`)).code).not.toBe(0);
    });
  });

  describe('active content (issue 25, finding 1)', () => {
    // A script that reports itself: if it ever runs on Cairn's origin, `pwned` is called with what it could read.
    const payload = Buffer.from('<!doctype html><html><body><h1>hi</h1><script>window.pwned(String(location.origin) + " " + document.cookie)</script></body></html>');
    let layer: string;

    it('serves a layer pushed with skopeo as text/html as inert bytes: decided type, nosniff, sandbox', async () => {
      const src = path.join(work, 'evil');
      const image = buildLayoutWithLayer(src, 'v1', 'text/html', payload);
      layer = image.layers[0].digest;
      const pushed = await push(`oci:${src}:v1`, `${alice.username}/evil:v1`, alice);
      expect(pushed.code, pushed.stderr).toBe(0);

      for (const method of ['GET', 'HEAD']) {
        // Anonymous and without a token, as in the report: alice's images are public.
        const res = await reg(method, `/v2/${alice.username}/evil/blobs/${layer}`);
        expect(res.status, method).toBe(200);
        expect(res.headers.get('content-type'), method).toBe('application/octet-stream');
        expect(res.headers.get('x-content-type-options'), method).toBe('nosniff');
        expect(res.headers.get('content-security-policy'), method).toMatch(/(^|; )sandbox$/);
        if (method === 'GET') expect(Buffer.from(await res.arrayBuffer()).equals(payload)).toBe(true);
      }
      // Manifests keep their media type: OCI clients need it, and JSON is no active content.
      const manifest = await reg('GET', `/v2/${alice.username}/evil/manifests/v1`, {
        auth: await bearer(), headers: { accept: OCI_MANIFEST },
      });
      expect(manifest.status).toBe(200);
      expect(manifest.headers.get('content-type')).toBe(OCI_MANIFEST);
      expect(manifest.headers.get('x-content-type-options')).toBe('nosniff');
      // And skopeo still pulls the image back.
      const pulled = await pull(`${alice.username}/evil:v1`, `oci:${path.join(work, 'evil-pulled')}:v1`, alice);
      expect(pulled.code, pulled.stderr).toBe(0);
    });

    it.skipIf(!chromiumAvailable())('runs no script when a signed-in user opens the blob in Chromium', async () => {
      const browser = await launchBrowser();
      try {
        const { context, page } = await newPage(browser, suite.baseUrl);
        const ran: string[] = [];
        let scriptRan: (what: string) => void = () => undefined;
        await page.exposeFunction('pwned', (what: string) => {
          ran.push(what);
          scriptRan(what);
        });
        await signIn(page, alice);
        expect((await context.cookies()).length).toBeGreaterThan(0);
        const url = `/v2/${alice.username}/evil/blobs/${layer}`;
        // The detector works: the blob answered as it was before the fix (text/html, no CSP) runs and reports.
        await page.route(`**${url}?as-before`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: payload }));
        await page.goto(`${url}?as-before`);
        await expect.poll(() => ran.length).toBe(1);
        expect(ran[0]).toContain(new URL(suite.baseUrl).origin);
        ran.length = 0;
        await page.goto('/');
        // The bytes arrive as a download (a navigation to a download is aborted: not an error here), no script runs.
        const outcome = Promise.race([
          page.waitForEvent('download').then(() => 'downloaded'),
          new Promise<string>((resolve) => (scriptRan = (what) => resolve(`script ran: ${what}`))),
        ]);
        await page.goto(url).catch(() => undefined);
        expect(await outcome).toBe('downloaded');
        // The page is still whatever it was: nothing rendered the blob as HTML, nothing ran.
        expect(await page.locator('h1', { hasText: 'hi' }).count()).toBe(0);
        expect(ran).toEqual([]);
        await context.close();
      } finally {
        await browser.close();
      }
    });
  });

  describe('protocol', () => {
    let token: string;
    let base: string;
    const content = Buffer.from('0123456789abcdefghij');
    const digest = sha256(content);

    beforeAll(async () => {
      token = await bearer(alice.basic);
      base = `/v2/${alice.username}/proto`;
    });

    it('chunked upload: 202 + Location, PATCH with Content-Range, status, 416 on a gap, PUT ?digest= finishes', async () => {
      const start = await reg('POST', `${base}/blobs/uploads/`, { auth: token });
      expect(start.status).toBe(202);
      const location = start.headers.get('location')!;
      expect(location).toMatch(new RegExp(`^/v2/${alice.username}/proto/blobs/uploads/[A-Za-z0-9_-]+$`));
      expect(start.headers.get('range')).toBe('0-0');
      expect(start.headers.get('docker-upload-uuid')).toBe(location.split('/').pop());

      const first = await reg('PATCH', location, { auth: token, body: content.subarray(0, 8), headers: { 'content-range': '0-7' } });
      expect(first.status).toBe(202);
      expect(first.headers.get('range')).toBe('0-7');

      const gap = await reg('PATCH', location, { auth: token, body: content.subarray(10), headers: { 'content-range': '10-19' } });
      expect(gap.status).toBe(416);
      expect(await errorCode(gap)).toBe('RANGE_INVALID');

      const status = await reg('GET', location, { auth: token });
      expect(status.status).toBe(204);
      expect(status.headers.get('range')).toBe('0-7');

      const wrong = await reg('PUT', `${location}?digest=${sha256('other')}`, { auth: token, body: content.subarray(8), headers: { 'content-range': '8-19' } });
      expect(wrong.status).toBe(400);
      expect(await errorCode(wrong)).toBe('DIGEST_INVALID');
    });

    it('chunked upload completed by the last PUT; the blob is then served (HEAD, GET)', async () => {
      const start = await reg('POST', `${base}/blobs/uploads/`, { auth: token });
      const location = start.headers.get('location')!;
      expect((await reg('PATCH', location, { auth: token, body: content.subarray(0, 12), headers: { 'content-range': '0-11' } })).status).toBe(202);
      const done = await reg('PUT', `${location}?digest=${digest}`, { auth: token, body: content.subarray(12), headers: { 'content-range': '12-19' } });
      expect(done.status).toBe(201);
      expect(done.headers.get('location')).toBe(`${base}/blobs/${digest}`);
      expect(done.headers.get('docker-content-digest')).toBe(digest);
      expect((await reg('GET', location, { auth: token })).status).toBe(404);

      const head = await reg('HEAD', `${base}/blobs/${digest}`, { auth: token });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(content.length));
      expect(head.headers.get('docker-content-digest')).toBe(digest);
      const get = await reg('GET', `${base}/blobs/${digest}`, { auth: token });
      expect(Buffer.from(await get.arrayBuffer()).equals(content)).toBe(true);
      // A resumed download asks for the rest.
      const rest = await reg('GET', `${base}/blobs/${digest}`, { auth: token, headers: { range: 'bytes=5-' } });
      expect(rest.status).toBe(206);
      expect(rest.headers.get('content-range')).toBe(`bytes 5-19/${content.length}`);
      expect(Buffer.from(await rest.arrayBuffer()).equals(content.subarray(5))).toBe(true);
      expect((await reg('GET', `${base}/blobs/${digest}`, { auth: token, headers: { range: 'bytes=99-' } })).status).toBe(416);
    });

    it('monolithic POST ?digest=, a cancelled session, a wrong digest', async () => {
      const other = Buffer.from('monolithic blob');
      const res = await reg('POST', `${base}/blobs/uploads/?digest=${sha256(other)}`, { auth: token, body: other });
      expect(res.status).toBe(201);
      expect(res.headers.get('docker-content-digest')).toBe(sha256(other));
      const bad = await reg('POST', `${base}/blobs/uploads/?digest=${sha256('not it')}`, { auth: token, body: other });
      expect(bad.status).toBe(400);
      expect(await errorCode(bad)).toBe('DIGEST_INVALID');

      const session = (await reg('POST', `${base}/blobs/uploads/`, { auth: token })).headers.get('location')!;
      expect((await reg('DELETE', session, { auth: token })).status).toBe(204);
      expect((await reg('PATCH', session, { auth: token, body: 'x' })).status).toBe(404);
    });

    it('mounts a blob from another image of the same owner, not from another owner', async () => {
      const mounted = await reg('POST', `/v2/${alice.username}/mounted/blobs/uploads/?mount=${digest}&from=${alice.username}/proto`, { auth: token });
      expect(mounted.status).toBe(201);
      expect(mounted.headers.get('location')).toBe(`/v2/${alice.username}/mounted/blobs/${digest}`);
      expect((await reg('HEAD', `/v2/${alice.username}/mounted/blobs/${digest}`, { auth: token })).status).toBe(200);

      const hiddenToken = await bearer(hidden.basic);
      const foreign = await reg('POST', `/v2/${hidden.username}/x/blobs/uploads/?mount=${digest}&from=${alice.username}/proto`, { auth: hiddenToken });
      expect(foreign.status).toBe(202);
      expect((await reg('HEAD', `/v2/${hidden.username}/x/blobs/${digest}`, { auth: hiddenToken })).status).toBe(404);
    });

    it('a manifest referencing a missing blob is MANIFEST_BLOB_UNKNOWN; one of the pushed blobs is stored', async () => {
      const config = Buffer.from('{"architecture":"amd64","os":"linux"}');
      expect((await reg('POST', `${base}/blobs/uploads/?digest=${sha256(config)}`, { auth: token, body: config })).status).toBe(201);
      const manifest = (layer: string, size: number) => JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length },
        layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: layer, size }],
      });
      const missing = await reg('PUT', `${base}/manifests/broken`, {
        auth: token, body: manifest(`sha256:${'0'.repeat(64)}`, 1), headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      });
      expect(missing.status).toBe(404);
      expect((await errors(missing))[0]).toMatchObject({ code: 'MANIFEST_BLOB_UNKNOWN' });
      expect((await reg('GET', `${base}/manifests/broken`, { auth: token })).status).toBe(404);

      const good = manifest(digest, content.length);
      const put = await reg('PUT', `${base}/manifests/ok`, { auth: token, body: good, headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
      expect(put.status).toBe(201);
      expect(put.headers.get('docker-content-digest')).toBe(sha256(good));
      const get = await reg('GET', `${base}/manifests/${sha256(good)}`, { auth: token });
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('application/vnd.oci.image.manifest.v1+json');
      expect(await get.text()).toBe(good);
      const byDigestWrong = await reg('PUT', `${base}/manifests/${sha256('x')}`, { auth: token, body: good, headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
      expect(byDigestWrong.status).toBe(400);
      expect(await errorCode(byDigestWrong)).toBe('DIGEST_INVALID');
      const invalid = await reg('PUT', `${base}/manifests/bad`, { auth: token, body: '{"schemaVersion":2', headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
      expect(invalid.status).toBe(400);
      expect(await errorCode(invalid)).toBe('MANIFEST_INVALID');

      expect((await reg('DELETE', `${base}/manifests/ok`, { auth: token })).status).toBe(202);
      expect((await reg('HEAD', `${base}/manifests/ok`, { auth: token })).status).toBe(404);
    });

    localStorageOnly('bad names and digests are refused before any lookup', async () => {
      const upper = await reg('GET', `/v2/${alice.username}/UPPER/tags/list`, { auth: token });
      expect(upper.status).toBe(400);
      expect(await errorCode(upper)).toBe('NAME_INVALID');
      expect((await reg('GET', `/v2/${alice.username}/a..b/tags/list`, { auth: token })).status).toBe(400);
      const blob = await reg('GET', `${base}/blobs/sha256:nothex`, { auth: token });
      expect(blob.status).toBe(404);
      expect(await errorCode(blob)).toBe('BLOB_UNKNOWN');
      const post = await reg('POST', `${base}/blobs/uploads/?digest=md5:abc`, { auth: token, body: 'x' });
      expect(post.status).toBe(400);
      expect(await errorCode(post)).toBe('DIGEST_INVALID');
      const ref = await reg('GET', `${base}/manifests/-bad-tag`, { auth: token });
      expect(ref.status).toBe(404);
      expect(await errorCode(ref)).toBe('MANIFEST_UNKNOWN');
    });

    it('tags/list pages with n and last (Link to the next page)', async () => {
      const appBase = `/v2/${alice.username}/app`;
      const all = await reg('GET', `${appBase}/tags/list`, { auth: token });
      expect(await all.json()).toEqual({ name: `${alice.username}/app`, tags: ['v1', 'v2'] });
      const first = await reg('GET', `${appBase}/tags/list?n=1`, { auth: token });
      expect(await first.json()).toEqual({ name: `${alice.username}/app`, tags: ['v1'] });
      expect(first.headers.get('link')).toBe(`<${appBase}/tags/list?last=v1&n=1>; rel="next"`);
      const next = await reg('GET', `${appBase}/tags/list?n=1&last=v1`, { auth: token });
      expect((await tagList(next)).tags).toEqual(['v2']);
      expect((await tagList(await reg('GET', `${appBase}/tags/list?n=0`, { auth: token }))).tags).toEqual([]);
      expect((await reg('GET', `${appBase}/tags/list?n=-1`, { auth: token })).status).toBe(400);
      const unknown = await reg('GET', `/v2/${alice.username}/nothing-here/tags/list`, { auth: token });
      expect(unknown.status).toBe(404);
      expect(await errorCode(unknown)).toBe('NAME_UNKNOWN');
    });

    localStorageOnly('_catalog lists the images whose owner the caller may see, in pages', async () => {
      const catalog = async (auth: string, q = '') => {
        const res = await reg('GET', `/v2/_catalog${q}`, { auth });
        expect(res.status).toBe(200);
        return { link: res.headers.get('link'), repositories: ((await res.json()) as { repositories: string[] }).repositories };
      };
      // `evil` is the active-content test's image (above).
      const publicImages = [`${alice.username}/app`, `${alice.username}/evil`, `${alice.username}/multi`];
      // Images holding only blobs (no manifest yet) are not listed, as in Gitea.
      expect((await catalog(await bearer(stranger.basic))).repositories).toEqual(publicImages);
      expect((await catalog(await bearer())).repositories).toEqual(publicImages);
      expect((await catalog(await bearer(hidden.basic))).repositories).toEqual([...publicImages, `${hidden.username}/secret`].sort());
      const page = await catalog(await bearer(stranger.basic), '?n=1');
      expect(page).toEqual({ repositories: [publicImages[0]], link: `</v2/_catalog?n=1&last=${encodeURIComponent(publicImages[0])}>; rel="next"` });
      expect((await catalog(await bearer(stranger.basic), `?n=1&last=${publicImages[0]}`)).repositories).toEqual([publicImages[1]]);
      expect((await reg('GET', '/v2/_catalog')).status).toBe(401);
      expect((await reg('POST', '/v2/token')).status).toBe(404);
    });

    localStorageOnly('permissions: anonymous push 401, stranger push 403 DENIED, read:package token cannot push, reader pulls', async () => {
      const blob = Buffer.from('perm');
      const url = `${base}/blobs/uploads/?digest=${sha256(blob)}`;
      const anon = await reg('POST', url, { auth: await bearer(), body: blob });
      expect(anon.status).toBe(401);
      expect(anon.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      const strangerRes = await reg('POST', url, { auth: await bearer(stranger.basic), body: blob });
      expect(strangerRes.status).toBe(403);
      expect(await errorCode(strangerRes)).toBe('DENIED');
      const readOnly = await reg('POST', url, { auth: await bearer(basicAuth(alice.username, aliceReadToken)), body: blob });
      expect(readOnly.status).toBe(403);
      expect((await reg('POST', url, { auth: token, body: blob })).status).toBe(201);
      const reader = await reg('GET', `${base}/blobs/${sha256(blob)}`, { auth: await bearer(stranger.basic) });
      expect(reader.status).toBe(200);
      expect(await reader.text()).toBe('perm');
      const privateRead = await reg('GET', `/v2/${hidden.username}/secret/tags/list`, { auth: await bearer(stranger.basic) });
      expect(privateRead.status).toBe(403);
      const anonPrivate = await reg('GET', `/v2/${hidden.username}/secret/tags/list`, { auth: await bearer() });
      expect(anonPrivate.status).toBe(401);
      // Basic credentials work on /v2 directly too (Gitea accepts them).
      expect((await reg('GET', `${base}/blobs/${sha256(blob)}`, { auth: alice.basic })).status).toBe(200);
      // A blob whose only manifest was deleted is gone from the image (the deleted version held it).
      expect((await reg('HEAD', `${base}/blobs/${digest}`, { auth: token })).status).toBe(404);
    });
  });

  localStorageOnly('organization images: a team with write on the packages unit pushes, a read team pulls only', async () => {
    const writer = await createUser(suite, await suite.createAdmin(), uniqueName('writer'));
    const reader = await createUser(suite, await suite.createAdmin(), uniqueName('reader'));
    const org = await createOrg(suite, alice, 'private');
    await createTeam(suite, alice, org, 'write', [writer]);
    await createTeam(suite, alice, org, 'read', [reader]);
    const blob = Buffer.from('org blob');
    const url = `/v2/${org}/tool/blobs/uploads/?digest=${sha256(blob)}`;
    expect((await reg('POST', url, { auth: await bearer(writer.basic), body: blob })).status).toBe(201);
    const readerPush = await reg('POST', url, { auth: await bearer(reader.basic), body: blob });
    expect(readerPush.status).toBe(403);
    expect(await errorCode(readerPush)).toBe('DENIED');
    const pulled = await reg('GET', `/v2/${org}/tool/blobs/${sha256(blob)}`, { auth: await bearer(reader.basic) });
    expect(await pulled.text()).toBe('org blob');
    expect((await reg('GET', `/v2/${org}/tool/blobs/${sha256(blob)}`, { auth: await bearer(stranger.basic) })).status).toBe(403);
  });

  it('stores what Gitea stores: a package per image, a version per tag and per untagged digest, blobs once', async () => {
    const db = new pg.Client({ connectionString: suite.databaseUrl });
    await db.connect();
    try {
      const versions = await db.query<{ name: string; version: string; is_internal: boolean }>(
        `SELECT p.name, v.version, v.is_internal FROM packages.package p JOIN packages.package_version v ON v.package_id = p.id
         WHERE p.type = 'container' AND p.name IN ('app', 'multi') ORDER BY p.name, v.version`,
      );
      const names = versions.rows.filter((r) => !r.is_internal).map((r) => `${r.name}:${r.version}`);
      // The index's two platform manifests were pushed by digest: untagged versions named by their digest.
      expect(names.filter((n) => n.startsWith('multi:sha256:'))).toHaveLength(2);
      expect(names).toEqual(expect.arrayContaining(['app:v1', 'app:v2', 'multi:latest']));
      const dupes = await db.query('SELECT hash_sha256 FROM packages.package_blob GROUP BY hash_sha256 HAVING count(*) > 1');
      expect(dupes.rows).toEqual([]);

      // Pulls count as downloads of the version; pushing the tag again keeps the count (as Gitea).
      const downloads = async () => Number((await db.query<{ download_count: string }>(
        `SELECT v.download_count FROM packages.package p JOIN packages.package_version v ON v.package_id = p.id
         JOIN packages.package_property pp ON pp.ref_type = 'package' AND pp.ref_id = p.id AND pp.name = 'container.repository'
         WHERE pp.value = $1 AND v.version = 'v1'`, [`${alice.username}/app`],
      )).rows[0].download_count);
      const before = await downloads();
      expect(before).toBeGreaterThan(0);
      const again = await push(`oci:${path.join(work, 'app')}:v1`, `${alice.username}/app:v1`, alice);
      expect(again.code, again.stderr).toBe(0);
      expect(await downloads()).toBe(before);
    } finally {
      await db.end();
    }
  });

  localStorageOnly('a bearer token refers to its user and access token: a demoted admin and a deleted token push no more (skopeo)', async () => {
    const src = path.join(work, 'bearer');
    buildImageLayout(src, 'v1', 'bearer');
    // skopeo presents the registry token itself (as a client that logged in an hour ago would); it still reads an
    // auth file, an empty one.
    const authFile = path.join(work, 'no-auths.json');
    writeFileSync(authFile, '{"auths":{}}');
    const pushWith = (token: string, ref: string) => skopeo([
      'copy', '--dest-tls-verify=false', '--dest-registry-token', token.replace(/^Bearer /, ''), `oci:${src}:v1`, `docker://${host}/${ref}`,
    ], { authFile });
    const api = http(suite);

    // A site admin's bearer pushes into alice's namespace; once he is demoted, the same bearer is refused.
    const root = await suite.createAdmin();
    const rootBearer = await bearer(root.basic);
    const asAdmin = await pushWith(rootBearer, `${alice.username}/by-admin:v1`);
    expect(asAdmin.code, asAdmin.stderr).toBe(0);
    const demoted = await api.patch(`/admin/users/${root.username}`, { basic: (await suite.createAdmin()).basic, body: { admin: false } });
    expect(demoted.status, demoted.text).toBe(200);
    const afterDemotion = await pushWith(rootBearer, `${alice.username}/by-admin:v2`);
    expect(afterDemotion.code).not.toBe(0);
    expect((await reg('GET', `/v2/${alice.username}/by-admin/tags/list`, { auth: alice.basic }).then(tagList)).tags).toEqual(['v1']);
    // His own namespace still takes his pushes: the bearer stands for who he is now.
    expect((await pushWith(rootBearer, `${root.username}/own:v1`)).code).toBe(0);

    // A bearer made from an access token works while the token exists, and stops when it is deleted.
    const name = uniqueName('registry');
    const secret = await createToken(suite, alice, ['write:package'], name);
    const tokenBearer = await bearer(basicAuth(alice.username, secret));
    expect((await pushWith(tokenBearer, `${alice.username}/by-token:v1`)).code).toBe(0);
    const deleted = await api.delete(`/users/${alice.username}/tokens/${name}`, { basic: alice.basic });
    expect(deleted.status, deleted.text).toBe(204);
    expect((await pushWith(tokenBearer, `${alice.username}/by-token:v2`)).code).not.toBe(0);
    const refused = await reg('GET', `/v2/${alice.username}/by-token/tags/list`, { auth: tokenBearer });
    expect(refused.status).toBe(401);
    expect(await errorCode(refused)).toBe('UNAUTHORIZED');
  });

  localStorageOnly('answers 503 UNAVAILABLE in the registry’s format while identity-service is down (runs last: stops it)', async () => {
    const token = await bearer(alice.basic);
    await suite.stopApp('identity-service');
    const res = await reg('GET', `/v2/${alice.username}/app/tags/list`, { auth: token });
    expect(res.status).toBe(503);
    expect(await errorCode(res)).toBe('UNAVAILABLE');
  });
});

describe.skipIf(!available || onObjectStorage)('container registry with LIMIT_SIZE_CONTAINER and REQUIRE_SIGNIN_VIEW', () => {
  let suite: TestSuite;
  let token: string;
  let base: string;
  const reg = (method: string, p: string, body?: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(`${suite.baseUrl}${p}`, { method, headers: { authorization: token, ...headers }, body: bodyInit(body) });

  beforeAll(async () => {
    suite = await startTestSuite({
      env: { ...FAST_PASSWORD_HASH, CAIRN__PACKAGES__LIMIT_SIZE_CONTAINER: '16', CAIRN__SERVICE__REQUIRE_SIGNIN_VIEW: 'true' },
    });
    const user = await createUser(suite, await suite.createAdmin(), uniqueName('small'));
    const res = await fetch(`${suite.baseUrl}/v2/token`, { headers: { authorization: user.basic } });
    token = `Bearer ${((await res.json()) as { token: string }).token}`;
    base = `/v2/${user.username}/small`;
  });

  afterAll(async () => {
    await suite?.stop();
  });

  it('REQUIRE_SIGNIN_VIEW: no anonymous registry token, no anonymous /v2/', async () => {
    const anon = await fetch(`${suite.baseUrl}/v2/token`);
    expect(anon.status).toBe(401);
    expect(await errorCode(anon)).toBe('UNAUTHORIZED');
    expect((await fetch(`${suite.baseUrl}/v2/`)).status).toBe(401);
    expect((await reg('GET', '/v2/')).status).toBe(200);
  });

  it('refuses a larger blob with 413, monolithic or chunked (the session keeps what it had)', async () => {
    const big = Buffer.alloc(17, 'x');
    const mono = await reg('POST', `${base}/blobs/uploads/?digest=${sha256(big)}`, big);
    expect(mono.status).toBe(413);
    expect((await errors(mono))[0]).toMatchObject({ code: 'SIZE_INVALID', message: expect.stringMatching(/16 bytes/) });

    const location = (await reg('POST', `${base}/blobs/uploads/`)).headers.get('location')!;
    expect((await reg('PATCH', location, big.subarray(0, 10), { 'content-range': '0-9' })).status).toBe(202);
    const over = await reg('PATCH', location, big.subarray(10), { 'content-range': '10-16' });
    expect(over.status).toBe(413);
    const status = await reg('GET', location);
    expect(status.headers.get('range')).toBe('0-9');
    const fits = Buffer.alloc(16, 'x');
    const done = await reg('PUT', `${location}?digest=${sha256(fits)}`, fits.subarray(10), { 'content-range': '10-15' });
    expect(done.status).toBe(201);
  });
});
