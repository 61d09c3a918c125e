/**
 * The npm registry (`/api/packages/{owner}/npm/`) driven by the real `npm` CLI through the gateway: publish of a
 * scoped package, install in a fresh folder (the installed files are the published ones), `npm view` with dist-tags,
 * `npm dist-tag add/rm/ls`, later versions and `latest`, Basic credentials, unpublish of a version and of the whole
 * package, search, permissions (strangers, anonymous callers, a read-only token, a private owner) and
 * `[packages] LIMIT_SIZE_NPM`. Gitea's TestPackageNpm protocol cases (409 on an existing version, dist-tag rules,
 * the `-rev` routes) run as plain HTTP requests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';
import { createToken } from '../support/session.js';
import { npmClient, writePackage, type NpmClient, type NpmCredentials, type NpmOptions } from '../support/npm-cli.js';
import { createOrg, createPackageUser, createTeam, registryUrls, type PackageUser } from '../support/packages.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';

const SCOPE = '@cairn-e2e';
const NAME = `${SCOPE}/hello`;
/** `[packages] LIMIT_SIZE_NPM` of this suite. */
const LIMIT = 64 * 1024;

let suite: TestSuite;
let alice: PackageUser;
let stranger: PackageUser;
let readOnly: PackageUser;
let privateOwner: PackageUser;
let aliceNpm: NpmClient;
let anonymousNpm: NpmClient;
const clients: NpmClient[] = [];

/** The files of the first version, as published. */
const FILES = {
  'index.js': "module.exports = () => 'hello from cairn';\n",
  'lib/data.txt': 'ünïcödé data\n',
  'bin/hello.js': "#!/usr/bin/env node\nconsole.log(require('..')());\n",
  'README.md': '# hello\n',
};

function client(registry: string, credentials: NpmCredentials = {}, options: NpmOptions = {}): NpmClient {
  const c = npmClient(registry, credentials, options);
  clients.push(c);
  return c;
}

function manifest(version: string, extra: Record<string, unknown> = {}) {
  return { name: NAME, version, description: 'says hello', main: 'index.js', bin: { hello: 'bin/hello.js' }, license: 'MIT', ...extra };
}

/** Every file below `dir` (relative path → bytes). */
function filesBelow(dir: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) for (const [k, v] of filesBelow(full, `${prefix}${entry}/`)) files.set(k, v);
    else files.set(`${prefix}${entry}`, readFileSync(full));
  }
  return files;
}

/** Temporary upload files of the suite's blob store: a refused publish leaves none. */
function tempFiles(): string[] {
  const tmp = path.join(suite.dataDir, 'packages', 'tmp');
  return existsSync(tmp) ? readdirSync(tmp) : [];
}

/**
 * A PUT on a connection of its own, closed afterwards: an answer that comes before the body is sent (a refusal)
 * leaves a keep-alive connection with half a body in it, which `fetch` would reuse for the next request.
 */
function putOnOwnConnection(url: string, body: string, authorization: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'PUT',
      agent: false,
      headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function registryOf(owner: string): string {
  return registryUrls(suite, owner).npm;
}

async function publish(npm: NpmClient, pkgManifest: Record<string, unknown>, files: Record<string, string | Buffer> = FILES, args: string[] = []) {
  const folder = writePackage(npm.dir, pkgManifest, files);
  return npm.run(['publish', ...args], { cwd: folder, allowFailure: true });
}

async function viewJson(npm: NpmClient, ...args: string[]) {
  const res = await npm.run(['view', NAME, ...args, '--json']);
  return JSON.parse(res.stdout) as unknown;
}

beforeAll(async () => {
  suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH, CAIRN__PACKAGES__LIMIT_SIZE_NPM: String(LIMIT) } });
  const admin = await suite.createAdmin();
  alice = await createPackageUser(suite, admin, 'alice', ['write:package']);
  stranger = await createPackageUser(suite, admin, 'stranger', ['write:package']);
  readOnly = await createPackageUser(suite, admin, 'reader', ['read:package']);
  privateOwner = await createPackageUser(suite, admin, 'hidden', ['write:package'], { visibility: 'private' });
  aliceNpm = client(registryOf(alice.username), { token: alice.token });
  anonymousNpm = client(registryOf(alice.username));
});

afterAll(async () => {
  for (const c of clients) c.dispose();
  await suite?.stop();
});

describe('npm CLI against the npm registry', () => {
  it('publishes a scoped package with a token from .npmrc', async () => {
    const res = await publish(aliceNpm, manifest('1.0.0'));
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`${NAME}@1.0.0`);
  });

  it('serves the packument anonymously for a public owner, with dist fields that match the packed tarball', async () => {
    const folder = writePackage(aliceNpm.dir, manifest('1.0.0'), FILES);
    const packed = JSON.parse((await aliceNpm.run(['pack', '--json', '--dry-run'], { cwd: folder })).stdout) as {
      integrity: string; shasum: string; filename: string;
    }[];
    const res = await fetch(`${registryOf(alice.username)}${encodeURIComponent(NAME)}`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.name).toBe(NAME);
    expect(doc['dist-tags']).toEqual({ latest: '1.0.0' });
    const dist = doc.versions['1.0.0'].dist;
    expect(dist.integrity).toBe(packed[0].integrity);
    expect(dist.shasum).toBe(packed[0].shasum);
    expect(dist.tarball).toBe(`${suite.rootUrl}api/packages/${alice.username}/npm/%40cairn-e2e%2Fhello/-/1.0.0/hello-1.0.0.tgz`);
    const tarballRes = await fetch(dist.tarball);
    // Stored bytes go out inert (issue 25): decided type, nosniff, sandbox, as an attachment.
    expect(tarballRes.headers.get('content-type')).toBe('application/octet-stream');
    expect(tarballRes.headers.get('x-content-type-options')).toBe('nosniff');
    expect(tarballRes.headers.get('content-security-policy')).toMatch(/(^|; )sandbox$/);
    expect(tarballRes.headers.get('content-disposition')).toMatch(/^attachment; /);
    const tarball = Buffer.from(await tarballRes.arrayBuffer());
    expect(`sha512-${createHash('sha512').update(tarball).digest('base64')}`).toBe(dist.integrity);
    // The scoped name in its other URL forms, and the tarball by file name only.
    expect((await fetch(`${registryOf(alice.username)}${NAME}`)).status).toBe(200);
    expect((await fetch(`${registryOf(alice.username)}@cairn-e2e%2fhello`)).status).toBe(200);
    const byName = await fetch(`${registryOf(alice.username)}${NAME}/-/hello-1.0.0.tgz`);
    expect(Buffer.from(await byName.arrayBuffer()).equals(tarball)).toBe(true);
  });

  it('installs the package in a fresh folder through a scope mapping: the installed files are the published ones', async () => {
    const scoped = client(registryOf(alice.username), {}, { scope: SCOPE });
    const project = writePackage(scoped.dir, { name: 'consumer', version: '1.0.0', private: true });
    await scoped.run(['install', NAME], { cwd: project });
    const installed = filesBelow(path.join(project, 'node_modules', SCOPE, 'hello'));
    for (const [name, content] of Object.entries(FILES)) {
      expect(installed.get(name)?.toString(), name).toBe(content);
    }
    expect(JSON.parse(installed.get('package.json')!.toString())).toMatchObject({ name: NAME, version: '1.0.0' });
    const bin = await scoped.run(['exec', '--', 'hello'], { cwd: project });
    expect(bin.stdout.trim()).toBe('hello from cairn');
  });

  it('publishes later versions: latest follows, --tag leaves it alone, npm view shows both', async () => {
    expect((await publish(aliceNpm, manifest('1.1.0'))).code).toBe(0);
    const beta = await publish(aliceNpm, manifest('2.0.0-beta.1'), FILES, ['--tag', 'beta']);
    expect(beta.code, beta.stderr).toBe(0);
    expect(await viewJson(anonymousNpm, 'dist-tags')).toEqual({ latest: '1.1.0', beta: '2.0.0-beta.1' });
    expect(await viewJson(anonymousNpm, 'version')).toBe('1.1.0');
    expect(await viewJson(anonymousNpm, 'versions')).toEqual(['1.0.0', '1.1.0', '2.0.0-beta.1']);
  });

  it('manages dist-tags with npm dist-tag add, ls and rm', async () => {
    await aliceNpm.run(['dist-tag', 'add', `${NAME}@1.0.0`, 'stable']);
    const listed = await aliceNpm.run(['dist-tag', 'ls', NAME]);
    expect(listed.stdout).toContain('stable: 1.0.0');
    expect(listed.stdout).toContain('latest: 1.1.0');
    expect(await viewJson(anonymousNpm, 'dist-tags')).toMatchObject({ stable: '1.0.0' });
    await aliceNpm.run(['dist-tag', 'rm', NAME, 'stable']);
    expect(await viewJson(anonymousNpm, 'dist-tags')).toEqual({ latest: '1.1.0', beta: '2.0.0-beta.1' });
    // Moving latest back by hand changes what `npm install` picks.
    await aliceNpm.run(['dist-tag', 'add', `${NAME}@1.0.0`, 'latest']);
    expect(await viewJson(anonymousNpm, 'version')).toBe('1.0.0');
    await aliceNpm.run(['dist-tag', 'add', `${NAME}@1.1.0`, 'latest']);
  });

  it('publishes with Basic credentials (username and password in .npmrc)', async () => {
    const basicNpm = client(registryOf(alice.username), { basic: { username: alice.username, password: alice.password } });
    const res = await publish(basicNpm, manifest('1.2.0'));
    expect(res.code, res.stderr).toBe(0);
    expect(await viewJson(anonymousNpm, 'version')).toBe('1.2.0');
  });

  it('installs a package with a dependency from the same registry (dependencies are served in the packument)', async () => {
    const app = `${SCOPE}/app`;
    const res = await publish(aliceNpm, { name: app, version: '0.1.0', main: 'index.js', dependencies: { [NAME]: '^1.0.0' } }, {
      'index.js': `module.exports = require('${NAME}');\n`,
    });
    expect(res.code, res.stderr).toBe(0);
    const scoped = client(registryOf(alice.username), {}, { scope: SCOPE });
    const project = writePackage(scoped.dir, { name: 'consumer', version: '1.0.0', private: true });
    await scoped.run(['install', app], { cwd: project });
    const dependency = JSON.parse(readFileSync(path.join(project, 'node_modules', SCOPE, 'hello', 'package.json'), 'utf8'));
    expect(dependency.version).toBe('1.2.0');
    const lock = JSON.parse(readFileSync(path.join(project, 'package-lock.json'), 'utf8'));
    expect(lock.packages[`node_modules/${NAME}`].resolved).toBe(
      `${suite.rootUrl}api/packages/${alice.username}/npm/%40cairn-e2e%2Fhello/-/1.2.0/hello-1.2.0.tgz`,
    );
  });

  it('finds the package with npm search', async () => {
    const res = await anonymousNpm.run(['search', '--json', 'hello']);
    const hits = JSON.parse(res.stdout) as { name: string; version: string }[];
    expect(hits.map((h) => h.name)).toContain(NAME);
  });

  it('refuses a stranger (403), anonymous callers (401) and a read-only token (403) on publish', async () => {
    const strangerRes = await publish(client(registryOf(alice.username), { token: stranger.token }), manifest('9.0.0'));
    expect(strangerRes.code).not.toBe(0);
    expect(strangerRes.stderr).toMatch(/npm error code E403/);
    expect(strangerRes.stderr).toContain('user should have specific permission or be a site admin');
    const anonymousRes = await publish(anonymousNpm, manifest('9.0.1'));
    expect(anonymousRes.code).not.toBe(0);
    expect(anonymousRes.stderr).toMatch(/npm error code (E401|ENEEDAUTH)/);
    const badToken = await publish(client(registryOf(alice.username), { token: 'cairn_not-a-real-token' }), manifest('9.0.3'));
    expect(badToken.stderr).toMatch(/npm error code E401/);
    const readerRes = await publish(client(registryOf(alice.username), { token: readOnly.token }), manifest('9.0.2'));
    expect(readerRes.code).not.toBe(0);
    expect(readerRes.stderr).toMatch(/npm error code E403/);
    expect(readerRes.stderr).toContain('write:package');
    expect(await viewJson(anonymousNpm, 'versions')).not.toContain('9.0.0');
    // A stranger publishes to their own registry just fine: the scope is no owner.
    const own = await publish(client(registryOf(stranger.username), { token: stranger.token }), manifest('1.0.0'));
    expect(own.code, own.stderr).toBe(0);
  });

  it("keeps a private owner's packages from anonymous callers and other users", async () => {
    const ownerNpm = client(registryOf(privateOwner.username), { token: privateOwner.token });
    expect((await publish(ownerNpm, manifest('1.0.0'))).code).toBe(0);
    expect(await ownerNpm.run(['view', NAME, 'version'])).toMatchObject({ code: 0 });
    const anonymous = await client(registryOf(privateOwner.username)).run(['view', NAME, 'version'], { allowFailure: true });
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toMatch(/npm error code E401/);
    const other = await client(registryOf(privateOwner.username), { token: stranger.token }).run(['view', NAME, 'version'], { allowFailure: true });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/npm error code E403/);
  });

  it("publishes to an organization's registry by its team permission on packages", async () => {
    const org = await createOrg(suite, alice, 'private');
    await createTeam(suite, alice, org, 'write', [stranger]);
    await createTeam(suite, alice, org, 'read', [readOnly]);
    const writer = await publish(client(registryOf(org), { token: stranger.token }), manifest('1.0.0'));
    expect(writer.code, writer.stderr).toBe(0);
    const readerNpm = client(registryOf(org), { token: (await createToken(suite, readOnly, ['write:package'])) });
    const reader = await publish(readerNpm, manifest('1.0.1'));
    expect(reader.stderr).toMatch(/npm error code E403/);
    expect(await readerNpm.run(['view', NAME, 'version'])).toMatchObject({ code: 0, stdout: '1.0.0\n' });
    const anonymous = await client(registryOf(org)).run(['view', NAME, 'version'], { allowFailure: true });
    expect(anonymous.stderr).toMatch(/npm error code E401/);
  });

  it('refuses a tarball over LIMIT_SIZE_NPM with 413 and records nothing', async () => {
    const res = await publish(aliceNpm, manifest('3.0.0'), { ...FILES, 'big.bin': randomBytes(LIMIT + 1024) });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/npm error code E413/);
    expect(res.stderr).toContain('LIMIT_SIZE_NPM');
    expect(await viewJson(anonymousNpm, 'versions')).not.toContain('3.0.0');
    expect(tempFiles()).toEqual([]);
  });

  it('unpublishes one version, then the whole package', async () => {
    await aliceNpm.run(['unpublish', `${NAME}@1.0.0`]);
    const versions = (await viewJson(anonymousNpm, 'versions')) as string[];
    expect(versions).not.toContain('1.0.0');
    expect(versions).toContain('1.1.0');
    const tarball = await fetch(`${registryOf(alice.username)}${encodeURIComponent(NAME)}/-/1.0.0/hello-1.0.0.tgz`);
    expect(tarball.status).toBe(404);
    await aliceNpm.run(['unpublish', NAME, '--force']);
    expect((await fetch(`${registryOf(alice.username)}${encodeURIComponent(NAME)}`)).status).toBe(404);
    const view = await anonymousNpm.run(['view', NAME], { allowFailure: true });
    expect(view.stderr).toMatch(/npm error code E404/);
  });
});

describe('npm registry protocol (Gitea TestPackageNpm)', () => {
  const name = '@scope/test-package';
  const version = '1.0.1-pre';
  /** Gitea's test tarball, its sha512 integrity and its sha1. */
  const data =
    'H4sIAAAAAAAA/ytITM5OTE/VL4DQelnF+XkMVAYGBgZmJiYK2MRBwNDcSIHB2NTMwNDQzMwAqA7IMDUxA9LUdgg2UFpcklgEdAql5kD8ogCnhwio5lJQUMpLzE1VslJQcihOzi9I1S9JLS7RhSYIJR2QgrLUouLM/DyQGkM9Az1D3YIiqExKanFyUWZBCVQ2BKhVwQVJDKwosbQkI78IJO/tZ+LsbRykxFXLNdA+HwWjYBSMgpENACgAbtAACAAA';
  const integrity = 'sha512-yA4FJsVhetynGfOC1jFf79BuS+jrHbm0fhh+aHzCQkOaOBXKf9oBnC4a6DnLLnEsHQDRLYd00cwj8sCXpC+wIg==';
  const shasum = 'aaa7eaf852a948b0aa05afeda35b1badca155d90';
  const root = () => `${registryOf(alice.username)}${encodeURIComponent(name)}`;
  const tagsRoot = () => `${registryOf(alice.username)}-/package/${encodeURIComponent(name)}/dist-tags`;
  const auth = () => ({ authorization: `Bearer ${alice.token}` });

  function upload(v: string, overrides: { integrity?: string; data?: string; name?: string } = {}) {
    return JSON.stringify({
      _id: name,
      name,
      description: 'Test Description',
      'dist-tags': { latest: v },
      versions: {
        [v]: {
          name: overrides.name ?? name,
          version: v,
          description: 'Test Description',
          author: { name: 'KN4CK3R' },
          bin: { cli: './cli.sh' },
          dist: { integrity: overrides.integrity ?? integrity, shasum },
          repository: { type: 'gitea', url: 'http://localhost:3000/gitea/test.git' },
        },
      },
      _attachments: { [`${name}-${v}.tgz`]: { data: overrides.data ?? data } },
    });
  }

  const put = (url: string, body: string, headers: Record<string, string> = auth()) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body });

  it('uploads (201), refuses the same version again (409) and bad uploads (400)', async () => {
    expect((await put(root(), upload(version))).status).toBe(201);
    const again = await put(root(), upload(version));
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: expect.stringMatching(/already exists/) });
    for (const [bad, message] of [
      [upload('1.0.2', { integrity: integrity.replace('yA4F', 'zA4F') }), /integrity/],
      [upload('1.0.3', { data: '!!!' }), /attachment is invalid/],
      [upload('1.0.4', { name: '@scope/other' }), /does not match/],
      [upload('1.0'), /version is invalid/],
      ['{"name": ', /not a valid npm package document/],
    ] as const) {
      const res = await put(root(), bad);
      expect(res.status, bad.slice(0, 80)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    expect(tempFiles()).toEqual([]);
    const metadata = (await (await fetch(root())).json()) as any;
    expect(Object.keys(metadata.versions)).toEqual([version]);
    expect(metadata.versions[version].dist).toMatchObject({ integrity, shasum });
    expect(metadata.versions[version].bin).toEqual({ cli: './cli.sh' });
    expect(metadata.repository).toEqual({ type: 'gitea', url: 'http://localhost:3000/gitea/test.git' });
    const tarball = await fetch(`${root()}/-/${version}/test-package-${version}.tgz`);
    expect(Buffer.from(await tarball.arrayBuffer()).equals(Buffer.from(data, 'base64'))).toBe(true);
    expect((await fetch(`${registryOf(alice.username)}does-not-exist`)).status).toBe(404);
    const noOwner = await fetch(`${registryOf('no-such-owner')}${encodeURIComponent(name)}`);
    expect(noOwner.status).toBe(404);
    expect(await noOwner.json()).toEqual({ error: 'owner does not exist' });
  });

  it('answers a refused large publish (403, 413) instead of resetting the connection', async () => {
    const big = upload('5.0.0', { data: randomBytes(4 << 20).toString('base64') });
    const refused = await putOnOwnConnection(root(), big, `Bearer ${stranger.token}`);
    expect(refused.status).toBe(403);
    const tooLarge = await putOnOwnConnection(root(), big, `Bearer ${alice.token}`);
    expect(tooLarge.status).toBe(413);
    expect((JSON.parse(tooLarge.body) as { error: string }).error).toMatch(/LIMIT_SIZE_NPM/);
    expect(tempFiles()).toEqual([]);
  });

  it('adds, lists and deletes dist-tags with Gitea\'s status codes', async () => {
    const addTag = (tag: string, v: string) => put(`${tagsRoot()}/${tag}`, JSON.stringify(v));
    expect((await addTag('1.0', version)).status).toBe(400);
    expect((await addTag('v1.0', version)).status).toBe(400);
    expect((await addTag('release', '1.2')).status).toBe(404);
    expect((await addTag('latest', version)).status).toBe(200);
    expect((await addTag('release', version)).status).toBe(200);
    expect(await (await fetch(tagsRoot())).json()).toEqual({ latest: version, release: version });
    const del = (tag: string) => fetch(`${tagsRoot()}/${tag}`, { method: 'DELETE', headers: auth() });
    expect((await del('v1.0')).status).toBe(400);
    expect((await del('1.0')).status).toBe(400);
    expect((await del('dummy')).status).toBe(200);
    expect((await del('release')).status).toBe(200);
    expect(await (await fetch(tagsRoot())).json()).toEqual({ latest: version });
  });

  it('searches with from and size', async () => {
    const search = async (text: string, from: number, size: number) =>
      (await (await fetch(`${registryOf(alice.username)}-/v1/search?text=${text}&from=${from}&size=${size}`)).json()) as {
        total: number; objects: unknown[];
      };
    expect(await search('test', 0, 10)).toMatchObject({ total: 1, objects: [expect.anything()] });
    expect(await search('test', 1, 10)).toMatchObject({ total: 1, objects: [] });
    expect(await search('nothing-like-it', 0, 10)).toMatchObject({ total: 0, objects: [] });
  });

  it('deletes a version and then the package through the -rev routes (401 without credentials)', async () => {
    expect((await put(root(), upload(`${version}-dummy`))).status).toBe(201);
    expect((await fetch(`${root()}/-rev/dummy`, { method: 'PUT' })).status).toBe(401);
    expect((await fetch(`${root()}/-rev/dummy`, { method: 'PUT', headers: auth() })).status).toBe(200);
    const file = `${root()}/-/${version}/test-package-${version}.tgz/-rev/dummy`;
    expect((await fetch(file, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(file, { method: 'DELETE', headers: auth() })).status).toBe(200);
    const left = (await (await fetch(root())).json()) as any;
    expect(Object.keys(left.versions)).toEqual([`${version}-dummy`]);
    expect((await fetch(`${root()}/-rev/dummy`, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(`${root()}/-rev/dummy`, { method: 'DELETE', headers: auth() })).status).toBe(200);
    expect((await fetch(root())).status).toBe(404);
  });
});
