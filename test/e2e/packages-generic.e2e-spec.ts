/**
 * The generic package registry end to end with the real `curl` (Gitea's documented client for it): upload, download
 * (bytes, length and digests), conflicts, deletion, the size limits, names that try to leave their folder, and who may
 * read and write user- and organization-owned packages.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrg, createPackageUser, createTeam, curl, genericFileUrl, registryUrls, startPackagesSuite, type PackageUser,
  type PackagesTestBed,
} from '../support/packages.js';
import { createToken } from '../support/session.js';
import type { Account, TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const MiB = 1024 * 1024;
let bed: PackagesTestBed;
let suite: TestSuite;
let db: pg.Client;
let admin: Account;
let adminToken: string;
let alice: PackageUser;

/** Writes `data` to a file in the suite's folder (curl uploads files) and answers its path. */
function fileOf(data: Buffer): string {
  const file = path.join(suite.dataDir, `upload-${randomBytes(6).toString('hex')}`);
  writeFileSync(file, data);
  return file;
}

const sha = (algo: string, data: Buffer) => createHash(algo).update(data).digest('hex');

beforeAll(async () => {
  bed = await startPackagesSuite({
    ...FAST_PASSWORD_HASH, CAIRN__PACKAGES__LIMIT_SIZE_GENERIC: '2 MiB', CAIRN__PACKAGES__LIMIT_TOTAL_OWNER_SIZE: '5 MiB',
  });
  ({ suite, db, admin } = bed);
  adminToken = await createToken(suite, admin, ['write:package']);
  alice = await createPackageUser(suite, admin, 'alice');
});

afterAll(async () => {
  await bed?.stop();
});

describe('upload, download, delete', () => {
  it('uploads with curl --upload-file, downloads the same bytes with Content-Length and the digests', async () => {
    const data = randomBytes(MiB + 123);
    const url = genericFileUrl(suite, alice.username, 'tool', '1.0.0', 'tool-linux.bin');
    const put = await curl(['--user', `${alice.username}:${alice.token}`, '--upload-file', fileOf(data), url]);
    expect(put.status, put.body.toString()).toBe(201);

    const get = await curl([url]);
    expect(get.status).toBe(200);
    expect(get.body.equals(data)).toBe(true);
    expect(get.headers['content-length']).toBe(String(data.length));
    expect(get.headers.etag).toBe(`"${sha('sha256', data)}"`);
    expect(get.headers['x-checksum-md5']).toBe(sha('md5', data));
    expect(get.headers['x-checksum-sha1']).toBe(sha('sha1', data));
    expect(get.headers['x-checksum-sha512']).toBe(sha('sha512', data));
    expect(get.headers['content-disposition']).toContain('tool-linux.bin');

    const range = await curl(['--range', '10-19', url]);
    expect(range.status).toBe(206);
    expect(range.body.equals(data.subarray(10, 20))).toBe(true);
    const cached = await curl(['-H', `If-None-Match: "${sha('sha256', data)}"`, url]);
    expect(cached.status).toBe(304);
    const head = await curl(['--head', url]);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(data.length));
    expect(head.headers.etag).toBe(`"${sha('sha256', data)}"`);
  });

  it('serves stored HTML and SVG as inert downloads (issue 25: decided type, nosniff, sandbox, attachment)', async () => {
    const auth = ['--user', `${alice.username}:${alice.token}`];
    // Whatever the uploader declares: package files are bytes, as Gitea serves them.
    const files: Array<[string, Buffer, string]> = [
      ['page.html', Buffer.from('<html><script>alert(document.cookie)</script></html>'), 'application/octet-stream'],
      ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'application/octet-stream'],
    ];
    for (const [name, data, type] of files) {
      const url = genericFileUrl(suite, alice.username, 'site', '1.0.0', name);
      expect((await curl([...auth, '-H', 'Content-Type: text/html', '--upload-file', fileOf(data), url])).status).toBe(201);
      const get = await curl([url]);
      expect(get.status, name).toBe(200);
      expect(get.body.equals(data), name).toBe(true);
      expect(get.headers['content-type'], name).toBe(type);
      expect(get.headers['x-content-type-options'], name).toBe('nosniff');
      expect(get.headers['content-security-policy'], name).toMatch(/(^|; )sandbox$/);
      expect(get.headers['content-disposition'], name).toMatch(/^attachment; /);
    }
  });

  it('refuses the same file twice with 409, and adds another file to the version', async () => {
    const url = genericFileUrl(suite, alice.username, 'dup', '1', 'a.txt');
    const auth = ['-H', `Authorization: token ${alice.token}`];
    expect((await curl([...auth, '--upload-file', fileOf(Buffer.from('one')), url])).status).toBe(201);
    const again = await curl([...auth, '--upload-file', fileOf(Buffer.from('two')), url]);
    expect(again.status).toBe(409);
    expect(again.body.toString()).toMatch(/already exists/);
    expect((await curl([url])).body.toString()).toBe('one');
    const second = genericFileUrl(suite, alice.username, 'dup', '1', 'b.txt');
    expect((await curl([...auth, '--upload-file', fileOf(Buffer.from('bee')), second])).status).toBe(201);
  });

  it('deletes a file (the last one takes its version along) and a whole version', async () => {
    const auth = ['-H', `Authorization: token ${alice.token}`];
    const a = genericFileUrl(suite, alice.username, 'del', '1', 'a');
    const b = genericFileUrl(suite, alice.username, 'del', '1', 'b');
    for (const url of [a, b]) expect((await curl([...auth, '--upload-file', fileOf(randomBytes(10)), url])).status).toBe(201);
    expect((await curl([...auth, '-X', 'DELETE', a])).status).toBe(204);
    expect((await curl([a])).status).toBe(404);
    expect((await curl([b])).status).toBe(200);
    expect((await curl([...auth, '-X', 'DELETE', b])).status).toBe(204);
    const versions = await db.query(
      `SELECT v.id FROM packages.package_version v JOIN packages.package p ON p.id = v.package_id WHERE p.lower_name = 'del'`,
    );
    expect(versions.rows).toEqual([]);

    const v2 = genericFileUrl(suite, alice.username, 'del', '2', 'x');
    expect((await curl([...auth, '--upload-file', fileOf(randomBytes(10)), v2])).status).toBe(201);
    const versionUrl = `${registryUrls(suite, alice.username).generic}/del/2`;
    expect((await curl([...auth, '-X', 'DELETE', versionUrl])).status).toBe(204);
    expect((await curl([v2])).status).toBe(404);
    expect((await curl([...auth, '-X', 'DELETE', versionUrl])).status).toBe(404);
    expect((await curl([...auth, '-X', 'DELETE', `${versionUrl}/x`])).status).toBe(404);
  });

  it('answers 404 for missing packages, files and owners', async () => {
    expect((await curl([genericFileUrl(suite, alice.username, 'nothing', '1', 'f')])).status).toBe(404);
    expect((await curl([genericFileUrl(suite, 'no-such-owner-x', 'p', '1', 'f')])).status).toBe(404);
  });
});

describe('limits', () => {
  it('refuses a file over LIMIT_SIZE_GENERIC with 413 and a message naming the limit, keeping nothing', async () => {
    const bob = await createPackageUser(suite, admin, 'bob');
    const url = genericFileUrl(suite, bob.username, 'big', '1', 'big.bin');
    const declared = await curl(['--user', `${bob.username}:${bob.token}`, '--upload-file', fileOf(randomBytes(2 * MiB + 1)), url]);
    expect(declared.status).toBe(413);
    expect(declared.body.toString()).toMatch(/LIMIT_SIZE_GENERIC/);
    // Chunked (no Content-Length): refused while streaming.
    const chunked = await curl([
      '--user', `${bob.username}:${bob.token}`, '-H', 'Transfer-Encoding: chunked', '--upload-file', fileOf(randomBytes(2 * MiB + 1)), url,
    ]);
    expect(chunked.status).toBe(413);
    expect((await curl([url])).status).toBe(404);
  });

  it('refuses an upload past LIMIT_TOTAL_OWNER_SIZE with 413', async () => {
    const carol = await createPackageUser(suite, admin, 'carol');
    const auth = ['--user', `${carol.username}:${carol.token}`];
    for (const n of [1, 2]) {
      const res = await curl([...auth, '--upload-file', fileOf(randomBytes(2 * MiB)), genericFileUrl(suite, carol.username, 'q', String(n), 'f')]);
      expect(res.status).toBe(201);
    }
    const over = await curl([...auth, '--upload-file', fileOf(randomBytes(MiB + 1)), genericFileUrl(suite, carol.username, 'q', '3', 'f')]);
    expect(over.status).toBe(413);
    expect(over.body.toString()).toMatch(/LIMIT_TOTAL_OWNER_SIZE/);
  });
});

describe('names', () => {
  it('refuses traversal, separators, NUL, surrounding spaces and over-long names with 400', async () => {
    const base = registryUrls(suite, alice.username).generic;
    const bad = [
      `${base}/..%2F..%2Fetc/1/passwd`, `${base}/p/1/..`, `${base}/p/1/%2E%2E`, `${base}/p/1/a%2Fb`, `${base}/p/1/a%5Cb`,
      `${base}/p/1/a%00b`, `${base}/p/%201.0/f`, `${base}/p/1/%20f`, `${base}/${'x'.repeat(300)}/1/f`, `${base}/p/1/${'f'.repeat(300)}`,
      `${base}/p/1%00/f`, `${base}/%2E%2E/1/f`,
    ];
    for (const url of bad) {
      // `-X PUT --data-binary`: `--upload-file` would treat a last `..` segment as a folder and append a name.
      const res = await curl([
        '--path-as-is', '--user', `${alice.username}:${alice.token}`, '-X', 'PUT', '-H', 'Content-Type: application/octet-stream',
        '--data-binary', `@${fileOf(Buffer.from('x'))}`, url,
      ]);
      expect(res.status, `${url}: ${res.body} ${JSON.stringify(res.headers)}`).toBe(400);
      expect(res.body.toString(), url).toMatch(/invalid/);
    }
    const stored = await db.query(`SELECT name FROM packages.package_file WHERE name LIKE '%/%' OR name LIKE '%..%'`);
    expect(stored.rows).toEqual([]);
  });
});

describe('who may read and write', () => {
  type Caller = 'anonymous' | 'stranger' | 'reader' | 'writer' | 'codeOnly' | 'orgOwner' | 'admin' | 'self';
  const users: Partial<Record<Caller, PackageUser>> = {};
  let priv: PackageUser;
  let pubOrg: string;
  let privOrg: string;

  const auth = (caller: Caller): string[] => {
    if (caller === 'anonymous') return [];
    if (caller === 'admin') return ['-H', `Authorization: token ${adminToken}`];
    const u = users[caller]!;
    // Half the callers use Basic with the token as password, half the token header.
    return caller === 'reader' || caller === 'orgOwner' ? ['--user', `${u.username}:${u.token}`] : ['-H', `Authorization: token ${u.token}`];
  };

  beforeAll(async () => {
    users.stranger = await createPackageUser(suite, admin, 'stranger');
    users.reader = await createPackageUser(suite, admin, 'reader', ['read:package']);
    users.writer = await createPackageUser(suite, admin, 'writer');
    users.codeOnly = await createPackageUser(suite, admin, 'coder');
    users.orgOwner = await createPackageUser(suite, admin, 'boss');
    priv = await createPackageUser(suite, admin, 'hidden', ['write:package'], { visibility: 'private' });
    pubOrg = await createOrg(suite, users.orgOwner, 'public');
    privOrg = await createOrg(suite, users.orgOwner, 'private');
    for (const org of [pubOrg, privOrg]) {
      await createTeam(suite, users.orgOwner, org, 'read', [users.reader]);
      await createTeam(suite, users.orgOwner, org, 'write', [users.writer]);
      await createTeam(suite, users.orgOwner, org, 'write', [users.codeOnly], ['repo.code']);
    }
    const seed = async (owner: string, by: PackageUser) => {
      const res = await curl(['-H', `Authorization: token ${by.token}`, '--upload-file', fileOf(Buffer.from(owner)), genericFileUrl(suite, owner, 'm', '1', 'f')]);
      expect(res.status, `${owner}: ${res.body}`).toBe(201);
    };
    await seed(alice.username, alice);
    await seed(priv.username, priv);
    await seed(pubOrg, users.orgOwner);
    await seed(privOrg, users.orgOwner);
  });

  /** [caller, GET status, PUT status] per owner. */
  const matrix: Record<'public user' | 'private user' | 'public org' | 'private org', Array<[Caller, number, number]>> = {
    'public user': [['anonymous', 200, 401], ['stranger', 200, 403], ['self', 200, 201], ['admin', 200, 201]],
    'private user': [['anonymous', 401, 401], ['stranger', 403, 403], ['self', 200, 201], ['admin', 200, 201]],
    'public org': [
      ['anonymous', 200, 401], ['stranger', 200, 403], ['reader', 200, 403], ['codeOnly', 200, 403], ['writer', 200, 201],
      ['orgOwner', 200, 201], ['admin', 200, 201],
    ],
    'private org': [
      ['anonymous', 401, 401], ['stranger', 403, 403], ['reader', 200, 403], ['codeOnly', 200, 403], ['writer', 200, 201],
      ['orgOwner', 200, 201], ['admin', 200, 201],
    ],
  };

  for (const [ownerKind, rows] of Object.entries(matrix)) {
    it(`applies Gitea's access rule to a ${ownerKind}'s packages`, async () => {
      const owner = { 'public user': alice.username, 'private user': priv.username, 'public org': pubOrg, 'private org': privOrg }[ownerKind]!;
      for (const [caller, getStatus, putStatus] of rows) {
        const as = caller === 'self' ? (ownerKind === 'public user' ? ['-H', `Authorization: token ${alice.token}`] : ['-H', `Authorization: token ${priv.token}`]) : auth(caller);
        const get = await curl([...as, genericFileUrl(suite, owner, 'm', '1', 'f')]);
        expect(get.status, `${caller} GET ${ownerKind}: ${get.body}`).toBe(getStatus);
        if (getStatus === 200) expect(get.body.toString()).toBe(owner);
        if (getStatus === 401) expect(get.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
        const put = await curl([...as, '--upload-file', fileOf(Buffer.from(caller)), genericFileUrl(suite, owner, 'm', '1', `by-${caller}`)]);
        expect(put.status, `${caller} PUT ${ownerKind}: ${put.body}`).toBe(putStatus);
        const del = await curl([...as, '-X', 'DELETE', genericFileUrl(suite, owner, 'm', '1', `by-${caller}`)]);
        expect(del.status, `${caller} DELETE ${ownerKind}`).toBe(putStatus === 201 ? 204 : putStatus);
      }
    });
  }

  it('holds tokens to their package scopes', async () => {
    const readOnly = await createToken(suite, alice, ['read:package']);
    const repoOnly = await createToken(suite, alice, ['write:repository']);
    const url = genericFileUrl(suite, alice.username, 'm', '1', 'f');
    expect((await curl(['-H', `Authorization: token ${readOnly}`, url])).status).toBe(200);
    const put = await curl(['-H', `Authorization: token ${readOnly}`, '--upload-file', fileOf(Buffer.from('x')), genericFileUrl(suite, alice.username, 'm', '1', 'scoped')]);
    expect(put.status).toBe(403);
    expect(put.body.toString()).toMatch(/write:package/);
    expect((await curl(['-H', `Authorization: token ${repoOnly}`, url])).status).toBe(403);
  });

  it('refuses bad credentials with 401 and signs in with a password too', async () => {
    const url = genericFileUrl(suite, alice.username, 'm', '1', 'f');
    expect((await curl(['--user', `${alice.username}:wrong-password`, url])).status).toBe(401);
    expect((await curl(['--user', `${alice.username}:${alice.password}`, url])).status).toBe(200);
  });
});
