/**
 * Release attachments end to end, over the whole suite: Gitea's `Attachment` through `gitea-js` (multipart uploads
 * via fetch's FormData), raw `application/octet-stream` uploads named by `?name=`, list/get/rename/delete, the
 * release JSON's `assets`, downloads through `browser_download_url` and `/attachments/{uuid}` (bytes, length,
 * disposition, `download_count`), private repositories (404 to outsiders), drafts (hidden from readers), readers
 * refused (403), archived repositories (423), `[attachment] MAX_SIZE` (413 and nothing stored, declared or streamed), multipart with only the
 * session cookie refused (415: CSRF), single ranges (206, 416), and the bytes in the attachments' blob store (one blob
 * per content) removed with the last attachment naming them, their release or their repository. On the local
 * backend here; `release-attachments-s3.e2e-spec.ts` runs the same file on MinIO. (GitHub's upload API posts raw
 * bytes to uploads.github.com, not this route: no Octokit here.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, webSessionCookie, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { theRunningMinio } from '../support/minio.js';
import { REPO_SUITE_APPS } from '../support/git.js';
import { FAST_PASSWORD_HASH, expectApiError } from './identity-helpers.js';

const MB = 1024 * 1024;

let suite: TestSuite;
let api: HttpClient;
let owner: Account;
let reader: Account;
let token: string;
const pub = uniqueName('assets');
const priv = uniqueName('secret');
let releaseId: number;
/** The blob of the private repository's one attachment. */
let privateBlob: string;

type Attachment = {
  id: number; name: string; size: number; download_count: number; uuid: string; browser_download_url: string; created_at: string;
};

const gitea = (tok = token) => giteaApi(suite.baseUrl, { token: tok, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
const onMinio = process.env.CAIRN_E2E_STORAGE === 'minio';
const attachmentsDir = () => join(suite.dataDir, 'attachments');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const list = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** The sha256 of every attachment blob the suite stores, on its backend (the suite's MinIO bucket `cairn`, or its folder). */
async function storedBlobs(): Promise<string[]> {
  if (onMinio) return (await theRunningMinio().objectKeys('cairn', 'attachments/blobs/')).map((key) => key.slice(key.lastIndexOf('/') + 1));
  const root = join(attachmentsDir(), 'blobs');
  return list(root).flatMap((a) => list(join(root, a)).flatMap((b) => list(join(root, a, b))));
}

/** Temporary files and objects of uploads under way or cut short. */
async function tempFiles(): Promise<string[]> {
  const local = list(join(attachmentsDir(), 'tmp'));
  return onMinio ? [...local, ...(await theRunningMinio().objectKeys('cairn', 'attachments/tmp/'))] : local;
}

/** gitea-js's upload (multipart through fetch's FormData), answered as a plain response whatever the status. */
async function upload(repo: string, release: number, bytes: Buffer, fileName: string, query?: { name?: string }, tok = token) {
  try {
    const res = await gitea(tok).repos.repoCreateReleaseAttachment(owner.username, repo, release, { attachment: new File([new Uint8Array(bytes)], fileName) }, query);
    return { status: res.status, data: res.data as unknown as Attachment };
  } catch (err) {
    const res = err as Response & { error?: { message?: string } };
    return { status: res.status, data: undefined, message: res.error?.message };
  }
}

async function createRelease(repo: string, tag: string, draft = false): Promise<number> {
  const res = await api.post(`/repos/${owner.username}/${repo}/releases`, { token, body: { tag_name: tag, draft } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  suite = await startTestSuite({ apps: REPO_SUITE_APPS, env: { ...FAST_PASSWORD_HASH, CAIRN__ATTACHMENT__MAX_SIZE: '1' } });
  api = http(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  reader = await createUser(suite, admin, uniqueName('reader'));
  token = await createToken(suite, owner, ['write:repository']);
  for (const [name, isPrivate] of [[pub, false], [priv, true]] as const) {
    const res = await api.post('/user/repos', { basic: owner, body: { name, auto_init: true, private: isPrivate } });
    expect(res.status, res.text).toBe(201);
  }
  releaseId = await createRelease(pub, 'v1.0');
}, 300_000);

afterAll(async () => {
  await suite?.stop();
});

describe('release attachments', () => {
  const bytes = randomBytes(300 * 1024);
  let first: Attachment;

  it('uploads with gitea-js (201, Gitea’s Attachment), lists, gets, and fills the release’s assets', async () => {
    const res = await upload(pub, releaseId, bytes, 'tool.bin');
    expect(res.status, res.message).toBe(201);
    assertMatchesContract('POST', '/repos/{owner}/{repo}/releases/{id}/assets', 201, res.data);
    first = res.data!;
    expect(first).toMatchObject({
      name: 'tool.bin', size: bytes.length, download_count: 0,
      browser_download_url: `${suite.rootUrl}${owner.username}/${pub}/releases/download/v1.0/tool.bin`,
    });
    expect(first.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await storedBlobs()).toContain(sha256(bytes));

    // `?name=` names the attachment instead of the part's file name.
    const named = await upload(pub, releaseId, Buffer.from('read me\n'), 'notes.txt', { name: 'README v1.txt' });
    expect(named.status, named.message).toBe(201);
    expect(named.data!.browser_download_url).toBe(`${suite.rootUrl}${owner.username}/${pub}/releases/download/v1.0/README%20v1.txt`);

    const list = await gitea().repos.repoListReleaseAttachments(owner.username, pub, releaseId);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/releases/{id}/assets', 200, list.data);
    expect(list.data.map((a) => a.name)).toEqual(['tool.bin', 'README v1.txt']);
    const got = await gitea().repos.repoGetReleaseAttachment(owner.username, pub, releaseId, first.id);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', 200, got.data);
    expect(got.data).toEqual(first);
    const release = await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}`, { basic: reader });
    expect(release.body.assets).toEqual(list.data);
    const byTag = await api.get(`/repos/${owner.username}/${pub}/releases/tags/v1.0`);
    expect(byTag.body.assets.map((a: Attachment) => a.id)).toEqual(list.data.map((a) => a.id));

    expectApiError(await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets/999999`, { token }), 404);
    expectApiError(await api.get(`/repos/${owner.username}/${pub}/releases/999999/assets`, { token }), 404);
  });

  it('downloads through browser_download_url and /attachments/{uuid}, anonymously on a public repository, counting downloads', async () => {
    const res = await fetch(first.browser_download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="tool.bin"; filename*=UTF-8''tool.bin`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/(^|; )sandbox$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    const byUuid = await fetch(`${suite.baseUrl}/attachments/${first.uuid}`);
    expect(byUuid.status).toBe(200);
    expect(Buffer.from(await byUuid.arrayBuffer()).equals(bytes)).toBe(true);
    // A HEAD (a link checker, a resumable downloader probing) answers like a download but is not counted as one.
    const probed = await fetch(first.browser_download_url, { method: 'HEAD' });
    expect(probed.status).toBe(200);
    expect(probed.headers.get('content-length')).toBe(String(bytes.length));
    const got = await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets/${first.id}`);
    expect(got.body.download_count).toBe(2);

    // A resumed download: one range (206), a suffix range, and a range past the end (416).
    const part = await fetch(first.browser_download_url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(part.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const tail = await fetch(`${suite.baseUrl}/attachments/${first.uuid}`, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const past = await fetch(first.browser_download_url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    expect((await fetch(`${suite.baseUrl}/${owner.username}/${pub}/releases/download/v1.0/nope.bin`)).status).toBe(404);
    expect((await fetch(`${suite.baseUrl}/${owner.username}/${pub}/releases/download/v9/tool.bin`)).status).toBe(404);
    expect((await fetch(`${suite.baseUrl}/attachments/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${suite.baseUrl}/attachments/not-a-uuid`)).status).toBe(404);
  });

  it('takes a raw application/octet-stream body named by ?name= (400 without a name or without the attachment part)', async () => {
    const url = suite.api(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`);
    const headers = { authorization: `token ${token}`, 'content-type': 'application/octet-stream' };
    const raw = await fetch(`${url}?name=raw.dat`, { method: 'POST', headers, body: Buffer.from('raw bytes') });
    expect(raw.status).toBe(201);
    expect(await raw.json()).toMatchObject({ name: 'raw.dat', size: 9 });
    const unnamed = await fetch(url, { method: 'POST', headers, body: Buffer.from('raw bytes') });
    expect(unnamed.status).toBe(400);
    const form = new FormData();
    form.append('other', new File(['x'], 'x.txt'));
    const missing = await fetch(url, { method: 'POST', headers: { authorization: `token ${token}` }, body: form });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(/attachment/);
    const badName = await fetch(`${url}?name=${encodeURIComponent('../up.txt')}`, { method: 'POST', headers, body: Buffer.from('x') });
    expect(badName.status).toBe(400);
    expect((await upload(pub, releaseId, Buffer.from('x'), 'x.txt', { name: 'x'.repeat(300) })).status).toBe(400);
    expect((await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`, { token })).body).toHaveLength(3);
  });

  it('renames (201) and refuses readers (403) on every write', async () => {
    const renamed = await gitea().repos.repoEditReleaseAttachment(owner.username, pub, releaseId, first.id, { name: 'tool-1.0.bin' });
    expect(renamed.status).toBe(201);
    assertMatchesContract('PATCH', '/repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', 201, renamed.data);
    expect(renamed.data).toMatchObject({ id: first.id, name: 'tool-1.0.bin' });
    expect(renamed.data.browser_download_url).toMatch(/\/releases\/download\/v1\.0\/tool-1\.0\.bin$/);
    const moved = await fetch(renamed.data.browser_download_url!);
    expect(Buffer.from(await moved.arrayBuffer()).equals(bytes)).toBe(true);
    expectApiError(await api.patch(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets/${first.id}`, { token, body: { name: 'a/b' } }), 422);

    const readerToken = await createToken(suite, reader, ['write:repository']);
    const refused = await upload(pub, releaseId, Buffer.from('nope'), 'nope.txt', undefined, readerToken);
    expect(refused.status).toBe(403);
    const base = `/repos/${owner.username}/${pub}/releases/${releaseId}/assets/${first.id}`;
    expectApiError(await api.patch(base, { basic: reader, body: { name: 'x' } }), 403);
    expectApiError(await api.delete(base, { basic: reader }), 403);
    expect((await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`, { basic: reader })).body).toHaveLength(3);
  });

  it('refuses an upload over [attachment] MAX_SIZE with 413 and stores nothing, declared or streamed', async () => {
    const before = (await storedBlobs()).length;
    const big = randomBytes(MB + 1);
    const declared = await upload(pub, releaseId, big, 'big.bin');
    expect(declared.status).toBe(413);
    expect(declared.message).toMatch(/too large/);

    // No Content-Length: the multipart body streams until the part passes the limit.
    const boundary = 'cairn-boundary-1234';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n');
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunks = [head, big.subarray(0, MB / 2), big.subarray(MB / 2), tail];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await fetch(suite.api(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`), {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { message: string }).message).toMatch(/too large/);

    expect((await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`, { token })).body).toHaveLength(3);
    expect(await storedBlobs()).toHaveLength(before);
    await expect.poll(() => tempFiles()).toEqual([]);
  });

  it('refuses a multipart upload authenticated by the session cookie alone (415), as a cross-site form would send it', async () => {
    const cookie = await webSessionCookie(suite, owner);
    const form = new FormData();
    form.append('attachment', new File(['csrf'], 'csrf.txt'));
    const res = await fetch(suite.api(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`), {
      method: 'POST', headers: { cookie }, body: form,
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/Authorization header/);
    expect((await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`, { token })).body).toHaveLength(3);
    // Multipart stays refused on every other API route.
    const other = await fetch(suite.api(`/repos/${owner.username}/${pub}/releases`), {
      method: 'POST', headers: { authorization: `token ${token}` }, body: form,
    });
    expect(other.status).toBe(415);
  });

  it('hides a private repository’s attachments from outsiders (404) and serves them to its owner’s session and credentials', async () => {
    const rel = await createRelease(priv, 'p1');
    const secret = randomBytes(1000);
    privateBlob = sha256(secret);
    const res = await upload(priv, rel, secret, 'secret.bin');
    expect(res.status, res.message).toBe(201);
    expectApiError(await api.get(`/repos/${owner.username}/${priv}/releases/${rel}/assets`, { basic: reader }), 404);
    expectApiError(await api.get(`/repos/${owner.username}/${priv}/releases/${rel}/assets/${res.data!.id}`, { basic: reader }), 404);
    const outsider = await webSessionCookie(suite, reader);
    for (const url of [res.data!.browser_download_url, `${suite.baseUrl}/attachments/${res.data!.uuid}`]) {
      expect((await fetch(url, { headers: { cookie: outsider }, redirect: 'manual' })).status).toBe(404);
      expect((await fetch(url, { redirect: 'manual' })).status).not.toBe(200);
    }
    const mine = await fetch(res.data!.browser_download_url, { headers: { cookie: await webSessionCookie(suite, owner) } });
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer()).equals(secret)).toBe(true);
    // Scripts download with API credentials, as from Gitea: a token (with read:repository) or Basic.
    const byToken = await fetch(`${suite.baseUrl}/attachments/${res.data!.uuid}`, { headers: { authorization: `token ${token}` } });
    expect(byToken.status).toBe(200);
    expect(Buffer.from(await byToken.arrayBuffer()).equals(secret)).toBe(true);
    expect((await fetch(res.data!.browser_download_url, { headers: { authorization: owner.basic } })).status).toBe(200);
    expect((await fetch(res.data!.browser_download_url, { headers: { authorization: reader.basic } })).status).toBe(404);
    const userOnly = await createToken(suite, owner, ['read:user']);
    expect((await fetch(res.data!.browser_download_url, { headers: { authorization: `token ${userOnly}` } })).status).toBe(403);
    expect((await fetch(res.data!.browser_download_url, { headers: { authorization: 'token not-a-token' } })).status).toBe(401);
  });

  it('shows a draft’s attachments to writers only', async () => {
    const draft = await createRelease(pub, 'v2.0-rc', true);
    const res = await upload(pub, draft, Buffer.from('draft'), 'draft.txt');
    expect(res.status, res.message).toBe(201);
    expect((await api.get(`/repos/${owner.username}/${pub}/releases/${draft}/assets`, { token })).body).toHaveLength(1);
    expectApiError(await api.get(`/repos/${owner.username}/${pub}/releases/${draft}/assets`, { basic: reader }), 404);
    expect((await fetch(res.data!.browser_download_url)).status).toBe(404);
    expect((await fetch(`${suite.baseUrl}/attachments/${res.data!.uuid}`)).status).toBe(404);
  });

  it('refuses writes in an archived repository (423)', async () => {
    const name = uniqueName('archived');
    expect((await api.post('/user/repos', { basic: owner, body: { name, auto_init: true } })).status).toBe(201);
    const rel = await createRelease(name, 'a1');
    const kept = await upload(name, rel, Buffer.from('kept'), 'kept.txt');
    expect(kept.status, kept.message).toBe(201);
    expect((await api.patch(`/repos/${owner.username}/${name}`, { token, body: { archived: true } })).status).toBe(200);
    expect((await upload(name, rel, Buffer.from('late'), 'late.txt')).status).toBe(423);
    const one = `/repos/${owner.username}/${name}/releases/${rel}/assets/${kept.data!.id}`;
    expectApiError(await api.patch(one, { token, body: { name: 'renamed.txt' } }), 423);
    expectApiError(await api.delete(one, { token }), 423);
    expect((await fetch(kept.data!.browser_download_url)).status).toBe(200);
  });

  it('stores the same bytes once, kept until the last attachment naming them is deleted (204)', async () => {
    const again = await upload(pub, releaseId, bytes, 'tool-copy.bin');
    expect(again.status, again.message).toBe(201);
    expect((await storedBlobs()).filter((s) => s === sha256(bytes))).toHaveLength(1);
    expect((await gitea().repos.repoDeleteReleaseAttachment(owner.username, pub, releaseId, again.data!.id)).status).toBe(204);
    expect(await storedBlobs()).toContain(sha256(bytes));
    expect(Buffer.from(await (await fetch(`${suite.baseUrl}/attachments/${first.uuid}`)).arrayBuffer()).equals(bytes)).toBe(true);

    const res = await gitea().repos.repoDeleteReleaseAttachment(owner.username, pub, releaseId, first.id);
    expect(res.status).toBe(204);
    expect(await storedBlobs()).not.toContain(sha256(bytes));
    expectApiError(await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets/${first.id}`, { token }), 404);
    expect((await fetch(first.browser_download_url)).status).toBe(404);
    expectApiError(await api.delete(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets/${first.id}`, { token }), 404);
  });

  it('removes a release’s attachments with the release, and a repository’s with the repository', async () => {
    const assets = (await api.get(`/repos/${owner.username}/${pub}/releases/${releaseId}/assets`, { token })).body as Attachment[];
    expect(assets.map((a) => a.name).sort()).toEqual(['README v1.txt', 'raw.dat']);
    const released = [sha256(Buffer.from('read me\n')), sha256(Buffer.from('raw bytes'))];
    expect(await storedBlobs()).toEqual(expect.arrayContaining(released));
    expect((await api.delete(`/repos/${owner.username}/${pub}/releases/${releaseId}`, { token })).status).toBe(204);
    expect(await storedBlobs()).not.toEqual(expect.arrayContaining([released[0]]));
    expect(await storedBlobs()).not.toEqual(expect.arrayContaining([released[1]]));
    expect((await fetch(`${suite.baseUrl}/attachments/${assets[0].uuid}`)).status).toBe(404);

    expect(await storedBlobs()).toContain(privateBlob);
    expect((await api.delete(`/repos/${owner.username}/${priv}`, { basic: owner })).status).toBe(204);
    expect(await storedBlobs()).not.toContain(privateBlob);
    // The other repositories' blobs stay.
    expect(await storedBlobs()).toEqual(expect.arrayContaining([sha256(Buffer.from('kept')), sha256(Buffer.from('draft'))]));
  });
});
