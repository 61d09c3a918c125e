/**
 * Gitea's packages API (`/api/v1/packages/{owner}…`) end to end, over the whole suite: Gitea's `TestPackageAPI`
 * reproduced (a generic package with an empty file: list, get, versions, latest, repository link, files with the
 * empty-input digests, delete), Cairn's semantic-version order, paging headers, the access matrix on user- and
 * organization-owned packages (anonymous, stranger, organization member, reader and writer teams, owners, site
 * admin), `package` webhooks delivered signed to a real receiver (organization, repository and system hooks), and
 * the cascades: a deleted owner's packages go, a deleted repository's packages are unlinked.
 */
import { createHmac } from 'node:crypto';
import { giteaApi } from 'gitea-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import {
  createOrg, createPackageUser, createTeam, genericFileUrl, type PackageUser,
} from '../support/packages.js';
import { createToken, http, uniqueName, type Account, type HttpClient, type HttpResponse } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver.js';
import { expectApiError } from './identity-helpers.js';

/** The digests of empty input (Gitea's test uploads an empty `file.bin`). */
const EMPTY = {
  md5: 'd41d8cd98f00b204e9800998ecf8427e',
  sha1: 'da39a3ee5e6b4b0d3255bfef95601890afd80709',
  sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  sha512:
    'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
};
const PERMISSION = 'user should have specific permission or be a site admin';
const SECRET = 'packages-hook-secret';

let suite: TestSuite;
let api: HttpClient;
let db: pg.Client;
let admin: Account;
let adminToken: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  admin = await suite.createAdmin();
  adminToken = await createToken(suite, admin, ['write:package', 'read:user']);
}, 300_000);

afterAll(async () => {
  await db?.end();
  await suite?.stop();
  await receiver?.close();
});

/** Uploads one generic file (the generic registry, through the gateway). */
async function upload(owner: string, name: string, version: string, filename: string, body: string, token: string): Promise<void> {
  const res = await fetch(genericFileUrl(suite, owner, name, version, filename), {
    method: 'PUT',
    headers: { authorization: `token ${token}` },
    body,
  });
  expect(res.status, `upload ${owner}/${name}@${version}: ${await res.text()}`).toBe(201);
}

async function createRepo(user: Account, name: string, isPrivate = false): Promise<number> {
  const res = await api.post('/user/repos', { basic: user, body: { name, private: isPrivate } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function userId(login: string): Promise<number> {
  const res = await api.get(`/users/${login}`, { token: adminToken });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

const versionsOf = (res: HttpResponse) => (res.body as Array<{ version: string }>).map((p) => p.version);

describe("Gitea's TestPackageAPI", () => {
  let user4: PackageUser;
  let readToken: string;
  const name = 'test-package';
  const version = '1.0.3';
  const base = () => `/packages/${user4.username}`;

  beforeAll(async () => {
    user4 = await createPackageUser(suite, admin, 'user4', ['write:package']);
    readToken = await createToken(suite, user4, ['read:package']);
    await upload(user4.username, name, version, 'file.bin', '', user4.token);
  });

  it('ListPackages: the owner\'s package versions, with X-Total-Count', async () => {
    const res = await api.get(base(), { token: readToken });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/packages/{owner}', 200, res.body);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ type: 'generic', name, version, creator: { login: user4.username }, owner: { login: user4.username } });
    expect(res.headers.get('x-total-count')).toBe('1');

    expect((await api.get(`${base()}?type=npm`, { token: readToken })).body).toEqual([]);
    expect((await api.get(`${base()}?q=PACKAGE`, { token: readToken })).body).toHaveLength(1);
    expect((await api.get(`${base()}?q=nothing-like-it`, { token: readToken })).body).toEqual([]);
  });

  it('GetPackage: 404 for another type, the version otherwise', async () => {
    expectApiError(await api.get(`${base()}/dummy/${name}/${version}`, { token: readToken }), 404);
    const res = await api.get(`${base()}/generic/${name}/${version}`, { token: readToken });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/packages/{owner}/{type}/{name}/{version}', 200, res.body);
    expect(res.body).toMatchObject({ type: 'generic', name, version, creator: { login: user4.username }, repository: null });
    expect(res.body.html_url).toBe(`${suite.rootUrl}${user4.username}/-/packages/generic/${name}/${version}`);
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Names and versions are case-insensitive.
    expect((await api.get(`${base()}/generic/${name.toUpperCase()}/${version}`, { token: readToken })).status).toBe(200);
  });

  it('ListPackageVersions: the versions; an unknown package or type is an empty list', async () => {
    const res = await api.get(`${base()}/generic/${name}`, { token: readToken });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/packages/{owner}/{type}/{name}', 200, res.body);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ type: 'generic', name, version });
    expect(res.headers.get('x-total-count')).toBe('1');
    for (const path of [`${base()}/generic/no-such-package`, `${base()}/dummy/${name}`]) {
      const empty = await api.get(path, { token: readToken });
      expect(empty.status, empty.text).toBe(200);
      expect(empty.body).toEqual([]);
    }
  });

  it('LatestPackageVersion: the version, 404 for an unknown package', async () => {
    const res = await api.get(`${base()}/generic/${name}/-/latest`, { token: readToken });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/packages/{owner}/{type}/{name}/-/latest', 200, res.body);
    expect(res.body).toMatchObject({ type: 'generic', name, version });
    expectApiError(await api.get(`${base()}/generic/no-such-package/-/latest`, { token: readToken }), 404);
  });

  it('RepositoryLink: link (201), foreign repository (404), unlink (204), an invisible repository stays hidden', async () => {
    const get = () => api.get(`${base()}/generic/${name}/${version}`, { token: readToken });
    expect((await get()).body.repository).toBeNull();

    const repo4 = await createRepo(user4, uniqueName('repo4'));
    const repo4Name = (await db.query('SELECT name FROM repo.repositories WHERE id = $1', [repo4])).rows[0].name as string;
    expectApiError(await api.post(`${base()}/generic/${name}/-/link/${repo4Name}`, { token: readToken }), 403, /write:package/);
    const linked = await api.post(`${base()}/generic/${name}/-/link/${repo4Name}`, { token: user4.token });
    expect(linked.status, linked.text).toBe(201);
    const shown = await get();
    expect(shown.body.repository?.id).toBe(repo4);
    assertMatchesContract('GET', '/packages/{owner}/{type}/{name}/{version}', 200, shown.body);
    // Linked already: unlink first (Gitea's ErrInvalidArgument).
    expectApiError(await api.post(`${base()}/generic/${name}/-/link/${repo4Name}`, { token: user4.token }), 400);

    // A repository of another owner, even of the same name, is not among user4's: 404.
    const other = await createPackageUser(suite, admin, 'user3');
    await createRepo(other, 'repo3');
    expectApiError(await api.post(`${base()}/generic/${name}/-/unlink`, { token: readToken }), 403);
    expect((await api.post(`${base()}/generic/${name}/-/unlink`, { token: user4.token })).status).toBe(204);
    expect((await get()).body.repository).toBeNull();
    expectApiError(await api.post(`${base()}/generic/${name}/-/link/repo3`, { token: user4.token }), 404);
    expectApiError(await api.post(`${base()}/generic/${name}/-/unlink`, { token: user4.token }), 400);

    // Forced onto a private repository user4 cannot see: the package shows no repository.
    const hidden = await createRepo(other, uniqueName('private'), true);
    await db.query('UPDATE packages.package SET repo_id = $1 WHERE owner_id = $2 AND lower_name = $3', [hidden, await userId(user4.username), name]);
    try {
      expect((await get()).body.repository).toBeNull();
      const asAdmin = await api.get(`${base()}/generic/${name}/${version}`, { token: adminToken });
      expect(asAdmin.body.repository?.id).toBe(hidden);
    } finally {
      await db.query('UPDATE packages.package SET repo_id = NULL WHERE repo_id = $1', [hidden]);
    }
  });

  it('ListPackageFiles: 404 for another type; the empty file with lower-case size and the empty-input digests', async () => {
    expectApiError(await api.get(`${base()}/dummy/${name}/${version}/files`, { token: readToken }), 404);
    const res = await api.get(`${base()}/generic/${name}/${version}/files`, { token: readToken });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/packages/{owner}/{type}/{name}/{version}/files', 200, res.body);
    expect(res.body).toEqual([{ id: expect.any(Number), size: 0, name: 'file.bin', ...EMPTY }]);
    expect(res.text).not.toContain('"Size"');
  });

  it('needs a signed-in caller and the package scope', async () => {
    expectApiError(await api.get(base()), 401);
    expectApiError(await api.get(`${base()}/generic/${name}/${version}`), 401);
    const repoToken = await createToken(suite, user4, ['read:repository']);
    expectApiError(await api.get(base(), { token: repoToken }), 403, /read:package/);
    expectApiError(await api.delete(`${base()}/generic/${name}/${version}`, { token: readToken }), 403, /write:package/);
    expectApiError(await api.get('/packages/no-such-owner-anywhere', { token: readToken }), 404);
  });

  it('DeletePackage: 204, then the version is gone', async () => {
    await upload(user4.username, name, '2.0.0', 'file.bin', 'two', user4.token);
    expect((await api.delete(`${base()}/generic/${name}/2.0.0`, { token: user4.token })).status).toBe(204);
    expectApiError(await api.get(`${base()}/generic/${name}/2.0.0`, { token: readToken }), 404);
    expectApiError(await api.delete(`${base()}/generic/${name}/2.0.0`, { token: user4.token }), 404);
    expect(versionsOf(await api.get(`${base()}/generic/${name}`, { token: readToken }))).toEqual([version]);
  });
});

describe('gitea-js (a client generated from Gitea 1.23\'s description) against the packages API', () => {
  it('lists, gets, lists files of and deletes a package version', async () => {
    const owner = await createPackageUser(suite, admin, 'giteajs');
    await upload(owner.username, 'js-client', '0.1.0', 'lib.js', 'export {};', owner.token);
    const client = giteaApi(suite.baseUrl, { token: owner.token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
    const list = await client.packages.listPackages(owner.username, { type: 'generic' });
    expect(list.data.map((p) => `${p.name}@${p.version}`)).toEqual(['js-client@0.1.0']);
    const one = await client.packages.getPackage(owner.username, 'generic', 'js-client', '0.1.0');
    expect(one.data).toMatchObject({ type: 'generic', creator: { login: owner.username } });
    const files = await client.packages.listPackageFiles(owner.username, 'generic', 'js-client', '0.1.0');
    // 1.24 renamed the size field to lower case; gitea-js 1.23 still types it `Size`.
    expect(files.data).toEqual([expect.objectContaining({ name: 'lib.js', size: 10 })]);
    expect((await client.packages.deletePackage(owner.username, 'generic', 'js-client', '0.1.0')).status).toBe(204);
    await expect(client.packages.getPackage(owner.username, 'generic', 'js-client', '0.1.0')).rejects.toMatchObject({ status: 404 });
  });
});

describe('version order and paging', () => {
  let owner: PackageUser;
  const uploaded = ['1.9.0', '1.10.0', 'nightly', '2.0.0-rc.1', '1.10.1-beta'];
  const path = () => `/packages/${owner.username}/generic/ordered`;

  beforeAll(async () => {
    owner = await createPackageUser(suite, admin, 'order');
    for (const v of uploaded) await upload(owner.username, 'ordered', v, 'f.txt', v, owner.token);
  });

  it("lists newest first (Gitea's order), with Link and X-Total-Count", async () => {
    const all = await api.get(path(), { token: owner.token });
    expect(versionsOf(all)).toEqual([...uploaded].reverse());
    const page = await api.get(`${path()}?limit=2&page=2`, { token: owner.token });
    expect(versionsOf(page)).toEqual(['nightly', '1.10.0']);
    expect(page.headers.get('x-total-count')).toBe('5');
    const link = page.headers.get('link') ?? '';
    for (const [rel, n] of [['next', 3], ['last', 3], ['first', 1], ['prev', 1]] as const) {
      expect(link, link).toMatch(new RegExp(`<[^>]*/api/v1/packages/${owner.username}/generic/ordered\\?[^>]*page=${n}\\b[^>]*>; rel="${rel}"`));
    }
  });

  it('sort=semver: highest semantic version first, other versions after', async () => {
    const res = await api.get(`${path()}?sort=semver`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(versionsOf(res)).toEqual(['2.0.0-rc.1', '1.10.1-beta', '1.10.0', '1.9.0', 'nightly']);
    expect(versionsOf(await api.get(`${path()}?sort=semver&limit=2&page=2`, { token: owner.token }))).toEqual(['1.10.0', '1.9.0']);
    expectApiError(await api.get(`${path()}?sort=newest`, { token: owner.token }), 422, /sort must be one of/);
  });

  it('-/latest is the newest version; with semver=true the highest semantic version', async () => {
    expect((await api.get(`${path()}/-/latest`, { token: owner.token })).body.version).toBe('1.10.1-beta');
    expect((await api.get(`${path()}/-/latest?semver=true`, { token: owner.token })).body.version).toBe('2.0.0-rc.1');
    expect((await api.get(`${path()}/-/latest?semver=false`, { token: owner.token })).body.version).toBe('1.10.1-beta');
    expectApiError(await api.get(`${path()}/-/latest?semver=maybe`, { token: owner.token }), 422, 'semver must be true or false');
  });
});

describe('access matrix', () => {
  type Role = 'anonymous' | 'stranger' | 'owner' | 'admin' | 'member' | 'reader' | 'writer' | 'orgOwner';
  const people = {} as Record<Exclude<Role, 'anonymous' | 'admin'>, PackageUser>;
  const token = (role: Role) => (role === 'anonymous' ? undefined : role === 'admin' ? adminToken : people[role].token);
  let publicUser: PackageUser;
  let privateUser: PackageUser;
  let limitedUser: PackageUser;
  let publicOrg: string;
  let privateOrg: string;
  let limitedOrg: string;

  beforeAll(async () => {
    for (const role of ['stranger', 'member', 'reader', 'writer', 'orgOwner'] as const) {
      people[role] = await createPackageUser(suite, admin, role);
    }
    publicUser = await createPackageUser(suite, admin, 'pub');
    privateUser = await createPackageUser(suite, admin, 'priv', ['write:package'], { visibility: 'private' });
    limitedUser = await createPackageUser(suite, admin, 'lim', ['write:package'], { visibility: 'limited' });
    publicOrg = await createOrg(suite, people.orgOwner, 'public');
    privateOrg = await createOrg(suite, people.orgOwner, 'private');
    limitedOrg = await createOrg(suite, people.orgOwner, 'limited');
    for (const org of [publicOrg, privateOrg, limitedOrg]) {
      await createTeam(suite, people.orgOwner, org, 'write', [people.member], ['repo.code']);
      await createTeam(suite, people.orgOwner, org, 'read', [people.reader]);
      await createTeam(suite, people.orgOwner, org, 'write', [people.writer]);
    }
  });

  /** What each role gets: read routes, then deleting a version. */
  const expected: Record<string, Partial<Record<Role, [number, number]>>> = {
    'public user': { anonymous: [401, 401], stranger: [200, 403], owner: [200, 204], admin: [200, 204] },
    'private user': { anonymous: [401, 401], stranger: [403, 403], owner: [200, 204], admin: [200, 204] },
    'limited user': { anonymous: [401, 401], stranger: [200, 403], owner: [200, 204], admin: [200, 204] },
    'public organization': {
      anonymous: [401, 401], stranger: [200, 403], member: [200, 403], reader: [200, 403], writer: [200, 204], orgOwner: [200, 204], admin: [200, 204],
    },
    'private organization': {
      anonymous: [401, 401], stranger: [403, 403], member: [200, 403], reader: [200, 403], writer: [200, 204], orgOwner: [200, 204], admin: [200, 204],
    },
    'limited organization': {
      anonymous: [401, 401], stranger: [200, 403], member: [200, 403], reader: [200, 403], writer: [200, 204], orgOwner: [200, 204], admin: [200, 204],
    },
  };

  const ownerOf = (kind: string): { name: string; uploader: string } => {
    switch (kind) {
      case 'public user': return { name: publicUser.username, uploader: publicUser.token };
      case 'private user': return { name: privateUser.username, uploader: privateUser.token };
      case 'limited user': return { name: limitedUser.username, uploader: limitedUser.token };
      case 'public organization': return { name: publicOrg, uploader: people.orgOwner.token };
      case 'limited organization': return { name: limitedOrg, uploader: people.orgOwner.token };
      default: return { name: privateOrg, uploader: people.orgOwner.token };
    }
  };

  for (const [kind, roles] of Object.entries(expected)) {
    it(`${kind}: every read route and delete, per role`, async () => {
      const { name: owner, uploader } = ownerOf(kind);
      for (const role of Object.keys(roles) as Role[]) {
        await upload(owner, 'matrix', `1.0.0-${role}`, 'a.txt', role, uploader);
      }
      const owners = (role: Role) => (role === 'owner' ? kind.endsWith('user') : true);
      for (const [role, [read, write]] of Object.entries(roles) as [Role, [number, number]][]) {
        if (!owners(role)) continue;
        const userOwners: Record<string, PackageUser> = { 'public user': publicUser, 'private user': privateUser, 'limited user': limitedUser };
        const t = role === 'owner' ? userOwners[kind].token : token(role);
        const v = `1.0.0-${role}`;
        const base = `/packages/${owner}`;
        for (const path of [base, `${base}/generic/matrix`, `${base}/generic/matrix/-/latest`, `${base}/generic/matrix/${v}`, `${base}/generic/matrix/${v}/files`]) {
          const res = await api.get(path, { token: t });
          expect(res.status, `${kind}, ${role}: GET ${path} → ${res.text}`).toBe(read);
          if (read === 403) expect(res.body.message).toBe(PERMISSION);
        }
        const del = await api.delete(`${base}/generic/matrix/${v}`, { token: t });
        expect(del.status, `${kind}, ${role}: DELETE → ${del.text}`).toBe(write);
        if (write === 403) expect(del.body.message).toBe(PERMISSION);
        const link = await api.post(`${base}/generic/matrix/-/link/anything`, { token: t });
        if (write !== 204) expect(link.status, `${kind}, ${role}: link → ${link.text}`).toBe(write);
        else expect(link.status, `${kind}, ${role}: link to a missing repository → ${link.text}`).toBe(404);
      }
    });
  }
});

describe('linking an organization package', () => {
  it('needs write access to the repository to link and unlink, and an organization administrator to unlink', async () => {
    const orgOwner = await createPackageUser(suite, admin, 'linkowner');
    const writer = await createPackageUser(suite, admin, 'linkwriter');
    const org = await createOrg(suite, orgOwner, 'public');
    await createTeam(suite, orgOwner, org, 'write', [writer]);
    await upload(org, 'linkable', '1.0.0', 'f.bin', 'bytes', orgOwner.token);
    const repo = uniqueName('org-repo');
    expect((await api.post(`/orgs/${org}/repos`, { basic: orgOwner, body: { name: repo } })).status).toBe(201);
    const base = `/packages/${org}/generic/linkable`;

    // The writer may write packages but not the repository (its team has no repository unit).
    expectApiError(await api.post(`${base}/-/link/${repo}`, { token: writer.token }), 403, 'no permission to write to the repository');
    expect((await api.post(`${base}/-/link/${repo}`, { token: orgOwner.token })).status).toBe(201);
    const seen = await api.get(`${base}/1.0.0`, { token: writer.token });
    expect(seen.body.repository?.name).toBe(repo);
    expect(seen.body.repository?.permissions).toMatchObject({ push: false, pull: true });
    expectApiError(await api.post(`${base}/-/unlink`, { token: writer.token }), 403);
    expect((await api.post(`${base}/-/unlink`, { token: orgOwner.token })).status).toBe(204);
  });
});

describe('package webhooks', () => {
  let org: string;
  let writer: PackageUser;
  let orgOwner: PackageUser;
  let linkedOwner: PackageUser;
  let systemHookId: number | undefined;
  const at = (path: string) => receiver.received.filter((r) => r.path === path && r.event === 'package');
  const signatureOk = (r: ReceivedDelivery) =>
    r.headers['x-gitea-signature'] === createHmac('sha256', SECRET).update(r.body).digest('hex') &&
    r.headers['x-hub-signature-256'] === `sha256=${createHmac('sha256', SECRET).update(r.body).digest('hex')}`;
  const hook = (path: string, extra: Record<string, unknown> = {}) => ({
    type: 'gitea',
    active: true,
    events: ['package'],
    config: { url: `${receiver.url}${path}`, content_type: 'json', secret: SECRET, ...extra },
  });

  beforeAll(async () => {
    orgOwner = await createPackageUser(suite, admin, 'hookowner');
    writer = await createPackageUser(suite, admin, 'hookwriter');
    linkedOwner = await createPackageUser(suite, admin, 'linked');
    org = await createOrg(suite, orgOwner, 'public');
    await createTeam(suite, orgOwner, org, 'write', [writer]);
    expect((await api.post(`/orgs/${org}/hooks`, { basic: orgOwner, body: hook('/org') })).status).toBe(201);
    const system = await api.post('/admin/hooks', { basic: admin, body: hook('/system', { is_system_webhook: 'true' }) });
    expect(system.status, system.text).toBe(201);
    systemHookId = system.body.id;
  });

  // A system hook hears every package of the instance, which other test files share: gone with this describe.
  afterAll(async () => {
    if (systemHookId) await api.delete(`/admin/hooks/${systemHookId}`, { basic: admin });
  });

  it('an organization package: created and deleted reach the organization and system hooks, signed', async () => {
    await upload(org, 'hooked', '1.0.0', 'x.bin', 'payload', writer.token);
    await waitFor(() => at('/org').length >= 1 && at('/system').some((r) => r.json?.package?.owner?.login === org), 'created deliveries');
    const [created] = at('/org');
    expect(signatureOk(created)).toBe(true);
    expect(created.json).toMatchObject({
      action: 'created',
      repository: null,
      organization: null,
      package: { type: 'generic', name: 'hooked', version: '1.0.0', owner: { login: org }, creator: { login: writer.username } },
      sender: { login: writer.username },
    });
    expect(created.headers['x-gitea-event-type']).toBe('package');

    expect((await api.delete(`/packages/${org}/generic/hooked/1.0.0`, { token: orgOwner.token })).status).toBe(204);
    await waitFor(() => at('/org').length >= 2, 'the deleted delivery');
    const deleted = at('/org')[1];
    expect(signatureOk(deleted)).toBe(true);
    expect(deleted.json).toMatchObject({ action: 'deleted', package: { name: 'hooked', version: '1.0.0' }, sender: { login: orgOwner.username } });
    expect(at('/system').filter((r) => r.json?.package?.owner?.login === org).map((r) => r.json.action)).toEqual(['created', 'deleted']);
  });

  it("a linked package's events reach the repository's hooks, with the repository inside the package", async () => {
    await upload(linkedOwner.username, 'tool', '1.0.0', 't.bin', 'one', linkedOwner.token);
    const repoName = uniqueName('tool-repo');
    const repoId = await createRepo(linkedOwner, repoName);
    const repoHook = await api.post(`/repos/${linkedOwner.username}/${repoName}/hooks`, { basic: linkedOwner, body: hook('/repo') });
    expect(repoHook.status, repoHook.text).toBe(201);
    expect((await api.post(`/packages/${linkedOwner.username}/generic/tool/-/link/${repoName}`, { token: linkedOwner.token })).status).toBe(201);
    await upload(linkedOwner.username, 'tool', '1.1.0', 't.bin', 'two', linkedOwner.token);
    await waitFor(() => at('/repo').length >= 1, 'the repository hook delivery');
    const [delivery] = at('/repo');
    expect(signatureOk(delivery)).toBe(true);
    expect(delivery.json).toMatchObject({ action: 'created', package: { name: 'tool', version: '1.1.0', repository: { id: repoId } } });
  });
});

describe('cascades', () => {
  it("deleting a user removes the user's packages", async () => {
    const gone = await createPackageUser(suite, admin, 'gone');
    await upload(gone.username, 'left-behind', '1.0.0', 'f.bin', 'bytes', gone.token);
    const id = await userId(gone.username);
    const count = async () => Number((await db.query('SELECT count(*) AS n FROM packages.package WHERE owner_id = $1', [id])).rows[0].n);
    expect(await count()).toBe(1);
    expect((await api.delete(`/admin/users/${gone.username}`, { basic: admin })).status).toBe(204);
    await waitFor(async () => (await count()) === 0, 'the packages of the deleted owner to go');
  });

  it("deleting an organization removes the organization's packages", async () => {
    const orgOwner = await createPackageUser(suite, admin, 'orgdel');
    const org = await createOrg(suite, orgOwner, 'public');
    await upload(org, 'org-pkg', '1.0.0', 'f.bin', 'bytes', orgOwner.token);
    const id = await userId(org);
    const count = async () => Number((await db.query('SELECT count(*) AS n FROM packages.package WHERE owner_id = $1', [id])).rows[0].n);
    expect(await count()).toBe(1);
    expect((await api.delete(`/orgs/${org}`, { basic: orgOwner })).status).toBe(204);
    await waitFor(async () => (await count()) === 0, 'the packages of the deleted owner to go');
  });

  it("deleting a repository unlinks its packages, which stay", async () => {
    const owner = await createPackageUser(suite, admin, 'unlinked');
    await upload(owner.username, 'kept', '1.0.0', 'f.bin', 'bytes', owner.token);
    const repo = uniqueName('doomed');
    await createRepo(owner, repo);
    expect((await api.post(`/packages/${owner.username}/generic/kept/-/link/${repo}`, { token: owner.token })).status).toBe(201);
    const linkedRepo = async () => (await db.query("SELECT repo_id FROM packages.package WHERE lower_name = 'kept' AND owner_id = $1", [await userId(owner.username)])).rows[0].repo_id;
    expect(await linkedRepo()).not.toBeNull();
    expect((await api.delete(`/repos/${owner.username}/${repo}`, { basic: owner })).status).toBe(204);
    await waitFor(async () => (await linkedRepo()) === null, 'the package to be unlinked');
    const res = await api.get(`/packages/${owner.username}/generic/kept/1.0.0`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.repository).toBeNull();
  });
});
