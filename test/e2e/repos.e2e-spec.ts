/**
 * Repositories end to end (issue 3): creation for oneself, in an organization and by a site administrator (auto-init
 * with a README on the default branch, duplicates, invalid and reserved names), reading, editing (rename moves the
 * storage), deletion (removes the storage), the lists and search, collaborators — each route's status codes and
 * bodies checked against Gitea's shapes — and the permission matrix (anonymous, stranger, reader, writer, admin
 * collaborator, organization owner, site administrator) on a private and a public repository.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesDefinition } from '../support/openapi-contract.js';
import {
  createToken, createUser, http, uniqueName, type Account, type HttpClient, type HttpResponse,
} from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { bareRepoPath, commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { expectApiError, expectClientError, expectContract, scopeMessage } from './identity-helpers.js';

type Role = 'anonymous' | 'stranger' | 'reader' | 'writer' | 'repoAdmin' | 'orgOwner' | 'siteAdmin';
const ROLES: Role[] = ['anonymous', 'stranger', 'reader', 'writer', 'repoAdmin', 'orgOwner', 'siteAdmin'];

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-repos-');
let git: Git;
let admin: Account;
let orgOwner: Account;
let reader: Account;
let writer: Account;
let repoAdmin: Account;
let stranger: Account;
/** A user with repositories of their own. */
let alice: Account;
/** In a team of the organization that may create repositories. */
let creator: Account;
/** In a team of the organization that may not. */
let member: Account;
/** Added and removed as a collaborator by the matrix tests. */
let extra: Account;
let org: string;
/** `org/secret-…` (private) and `org/open-…` (public), both auto-initialised, with reader/writer/admin collaborators. */
let secret: string;
let open: string;

const accounts = (): Record<Exclude<Role, 'anonymous'>, Account> => ({
  stranger, reader, writer, repoAdmin, orgOwner, siteAdmin: admin,
});

function as(role: Role): { basic?: Account } {
  return role === 'anonymous' ? {} : { basic: accounts()[role] };
}

async function createOrgRepo(name: string, isPrivate: boolean, autoInit = true): Promise<HttpResponse> {
  const res = await api.post(`/orgs/${org}/repos`, {
    basic: orgOwner,
    body: { name, private: isPrivate, auto_init: autoInit, description: `the ${name} repository` },
  });
  expect(res.status, res.text).toBe(201);
  return res;
}

async function addCollaborator(owner: string, repo: string, user: Account, permission: string, by: Account = orgOwner) {
  const res = await api.put(`/repos/${owner}/${repo}/collaborators/${user.username}`, { basic: by, body: { permission } });
  expect(res.status, res.text).toBe(204);
}

async function withCollaborators(repo: string): Promise<void> {
  await addCollaborator(org, repo, reader, 'read');
  await addCollaborator(org, repo, writer, 'write');
  await addCollaborator(org, repo, repoAdmin, 'admin');
}

const names = (res: HttpResponse): string[] => (res.body as Array<{ full_name: string }>).map((r) => r.full_name).sort();

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  admin = await suite.createAdmin();
  [orgOwner, reader, writer, repoAdmin, stranger, alice, creator, member, extra] = await Promise.all([
    createUser(suite, admin, uniqueName('owner')),
    createUser(suite, admin, uniqueName('reader')),
    createUser(suite, admin, uniqueName('writer')),
    createUser(suite, admin, uniqueName('radmin')),
    createUser(suite, admin, uniqueName('stranger')),
    createUser(suite, admin, uniqueName('alice')),
    createUser(suite, admin, uniqueName('creator')),
    createUser(suite, admin, uniqueName('member')),
    createUser(suite, admin, uniqueName('extra')),
  ]);
  org = uniqueName('org');
  expect((await api.post('/orgs', { basic: orgOwner, body: { username: org } })).status).toBe(201);
  for (const [name, canCreate, who] of [['makers', true, creator], ['watchers', false, member]] as const) {
    const team = await api.post(`/orgs/${org}/teams`, {
      basic: orgOwner,
      body: { name, permission: 'read', can_create_org_repo: canCreate, includes_all_repositories: false },
    });
    expect(team.status, team.text).toBe(201);
    expect((await api.put(`/teams/${team.body.id}/members/${who.username}`, { basic: orgOwner })).status).toBe(204);
  }
  secret = uniqueName('secret');
  open = uniqueName('open');
  await createOrgRepo(secret, true);
  await createOrgRepo(open, false);
  await withCollaborators(secret);
  await withCollaborators(open);
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

// ---- creation ------------------------------------------------------------------------------------------------------

describe('POST /user/repos', () => {
  it('creates an auto-initialised repository (201, Gitea Repository) with a README on main and storage on disk', async () => {
    const name = uniqueName('hello');
    const res = await api.post('/user/repos', {
      basic: alice,
      body: { name, description: 'greetings', auto_init: true, private: false },
    });
    expectContract('POST', '/user/repos', res, 201);
    assertMatchesDefinition('Repository', res.body);
    expect(res.body).toMatchObject({
      name,
      full_name: `${alice.username}/${name}`,
      description: 'greetings',
      owner: { login: alice.username },
      private: false,
      empty: false,
      fork: false,
      mirror: false,
      default_branch: 'main',
      permissions: { admin: true, push: true, pull: true },
      html_url: `${suite.rootUrl}${alice.username}/${name}`,
      url: `${suite.rootUrl}api/v1/repos/${alice.username}/${name}`,
      clone_url: `${suite.rootUrl}${alice.username}/${name}.git`,
      ssh_url: `ssh://git@${new URL(suite.rootUrl).hostname}:${suite.sshPort}/${alice.username}/${name}.git`,
    });
    expect(existsSync(bareRepoPath(suite.dataDir, alice.username, name))).toBe(true);

    const readme = await api.get(`/repos/${alice.username}/${name}/contents/README.md`, { basic: alice });
    expect(readme.status, readme.text).toBe(200);
    expect(Buffer.from(readme.body.content, 'base64').toString('utf8')).toBe(`# ${name}\n\ngreetings\n`);
    const branches = await api.get(`/repos/${alice.username}/${name}/branches`, { basic: alice });
    expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['main']);
  });

  it('honours default_branch and creates an empty repository without auto_init', async () => {
    const dev = uniqueName('dev');
    const res = await api.post('/user/repos', { basic: alice, body: { name: dev, auto_init: true, default_branch: 'develop' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.default_branch).toBe('develop');
    const branches = await api.get(`/repos/${alice.username}/${dev}/branches`, { basic: alice });
    expect(branches.body.map((b: { name: string }) => b.name)).toEqual(['develop']);

    const bare = uniqueName('bare');
    const empty = await api.post('/user/repos', { basic: alice, body: { name: bare, private: true } });
    expect(empty.status, empty.text).toBe(201);
    expect(empty.body).toMatchObject({ empty: true, private: true, default_branch: 'main' });
    expect(existsSync(bareRepoPath(suite.dataDir, alice.username, bare))).toBe(true);
  });

  it('refuses a duplicate name, in any case (409)', async () => {
    const name = uniqueName('dup');
    expect((await api.post('/user/repos', { basic: alice, body: { name } })).status).toBe(201);
    expectApiError(await api.post('/user/repos', { basic: alice, body: { name } }), 409, 'The repository with the same name already exists.');
    expectApiError(
      await api.post('/user/repos', { basic: alice, body: { name: name.toUpperCase() } }),
      409,
      'The repository with the same name already exists.',
    );
  });

  it.each([
    ['bad name', /name is invalid \[bad name\]/],
    ['a..b', /name is invalid/],
    ['semi;colon', /name is invalid/],
    ['slash/name', /name is invalid/],
    ['', /name is invalid/],
    ['x'.repeat(101), 'name must be shorter than or equal to 100 characters'],
    ['.', 'name is reserved [name: .]'],
    ['..', 'name is reserved [name: ..]'],
    ['-', 'name is reserved [name: -]'],
    ['project.git', 'name pattern is not allowed [pattern: *.git]'],
    ['project.wiki', 'name pattern is not allowed [pattern: *.wiki]'],
    ['feed.rss', 'name pattern is not allowed [pattern: *.rss]'],
  ])('refuses the name %j (422)', async (name, message) => {
    expectApiError(await api.post('/user/repos', { basic: alice, body: { name } }), 422, message);
  });

  it('refuses bad bodies: unparsable JSON (400), wrong types and unknown default branches (422)', async () => {
    expectApiError(
      await api.post('/user/repos', { basic: alice, body: '{"name":', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expectApiError(await api.post('/user/repos', { basic: alice, body: { name: 7 } }), 422, /name must be a string/);
    expectApiError(await api.post('/user/repos', { basic: alice, body: { name: uniqueName('x'), private: 'yes' } }), 422, /private must be a boolean/);
    expectApiError(
      await api.post('/user/repos', { basic: alice, body: { name: uniqueName('x'), default_branch: 'bad..branch' } }),
      422,
      'invalid default branch name "bad..branch"',
    );
    expectApiError(
      await api.post('/user/repos', { basic: alice, body: { name: uniqueName('x'), default_branch: '--orphan' } }),
      422,
    );
  });

  it('needs a signed-in caller (401) and, for tokens, write:repository (403)', async () => {
    expectApiError(await api.post('/user/repos', { body: { name: uniqueName('anon') } }), 401);
    const readOnly = await createToken(suite, alice, ['read:repository']);
    expectApiError(
      await api.post('/user/repos', { token: readOnly, body: { name: uniqueName('ro') } }),
      403,
      scopeMessage('write:repository', ['read:repository']),
    );
    const writeToken = await createToken(suite, alice, ['write:repository']);
    expect((await api.post('/user/repos', { token: writeToken, body: { name: uniqueName('tok') } })).status).toBe(201);
  });
});

describe('POST /orgs/{org}/repos', () => {
  it('lets organization owners, site administrators and members of teams that may create repositories create (201)', async () => {
    for (const who of [orgOwner, admin, creator]) {
      const name = uniqueName('orgrepo');
      const res = await api.post(`/orgs/${org}/repos`, { basic: who, body: { name } });
      expectContract('POST', '/orgs/{org}/repos', res, 201);
      expect(res.body).toMatchObject({ full_name: `${org}/${name}`, owner: { login: org }, empty: true });
      expect(existsSync(bareRepoPath(suite.dataDir, org, name))).toBe(true);
    }
  });

  it('refuses members of other teams and strangers (403), anonymous callers (401) and unknown organizations (404)', async () => {
    for (const who of [member, stranger]) {
      expectApiError(
        await api.post(`/orgs/${org}/repos`, { basic: who, body: { name: uniqueName('no') } }),
        403,
        'Given user is not allowed to create repository in organization.',
      );
    }
    expectApiError(await api.post(`/orgs/${org}/repos`, { body: { name: uniqueName('no') } }), 401);
    expectApiError(await api.post(`/orgs/${uniqueName('ghost')}/repos`, { basic: orgOwner, body: { name: 'x' } }), 404);
    // A user is not an organization.
    expectApiError(await api.post(`/orgs/${alice.username}/repos`, { basic: alice, body: { name: uniqueName('x') } }), 404);
  });

  it('refuses duplicates (409) and reserved names (422) in organizations too', async () => {
    expectApiError(await api.post(`/orgs/${org}/repos`, { basic: orgOwner, body: { name: open } }), 409);
    expectApiError(await api.post(`/orgs/${org}/repos`, { basic: orgOwner, body: { name: 'x.atom' } }), 422);
  });
});

describe('POST /admin/users/{username}/repos', () => {
  it('lets a site administrator create a repository for a user (201), owned by that user', async () => {
    const name = uniqueName('gift');
    const res = await api.post(`/admin/users/${alice.username}/repos`, { basic: admin, body: { name, auto_init: true } });
    expectContract('POST', '/admin/users/{username}/repos', res, 201);
    expect(res.body).toMatchObject({ full_name: `${alice.username}/${name}`, owner: { login: alice.username }, empty: false });
    const mine = await api.get(`/repos/${alice.username}/${name}`, { basic: alice });
    expect(mine.body.permissions).toEqual({ admin: true, push: true, pull: true });
  });

  it('refuses everyone else (403 / 401), unknown users (404), duplicates (409) and bad names (422)', async () => {
    expectApiError(
      await api.post(`/admin/users/${alice.username}/repos`, { basic: alice, body: { name: uniqueName('x') } }),
      403,
      'user should be the site admin',
    );
    expectApiError(await api.post(`/admin/users/${alice.username}/repos`, { body: { name: uniqueName('x') } }), 401);
    expectApiError(await api.post(`/admin/users/${uniqueName('ghost')}/repos`, { basic: admin, body: { name: 'x' } }), 404);
    const name = uniqueName('twice');
    expect((await api.post(`/admin/users/${alice.username}/repos`, { basic: admin, body: { name } })).status).toBe(201);
    expectApiError(await api.post(`/admin/users/${alice.username}/repos`, { basic: admin, body: { name } }), 409);
    expectApiError(await api.post(`/admin/users/${alice.username}/repos`, { basic: admin, body: { name: 'a b' } }), 422);
  });
});

// ---- the permission matrix ---------------------------------------------------------------------------------------

/** What each role may do on the private and the public repository. */
const MATRIX: Record<Role, {
  private: { see: boolean; perms?: [boolean, boolean, boolean] };
  public: { perms: [boolean, boolean, boolean] };
}> = {
  anonymous: { private: { see: false }, public: { perms: [false, false, true] } },
  stranger: { private: { see: false }, public: { perms: [false, false, true] } },
  reader: { private: { see: true, perms: [false, false, true] }, public: { perms: [false, false, true] } },
  writer: { private: { see: true, perms: [false, true, true] }, public: { perms: [false, true, true] } },
  repoAdmin: { private: { see: true, perms: [true, true, true] }, public: { perms: [true, true, true] } },
  orgOwner: { private: { see: true, perms: [true, true, true] }, public: { perms: [true, true, true] } },
  siteAdmin: { private: { see: true, perms: [true, true, true] }, public: { perms: [true, true, true] } },
};

const perms = ([admin_, push, pull]: [boolean, boolean, boolean]) => ({ admin: admin_, push, pull });
const ADMIN_NEEDED = 'user should be an owner or a collaborator with admin write of a repository';
const OWNER_NEEDED = 'user should be the owner of the repo';

describe('permission matrix: GET /repos/{owner}/{repo}', () => {
  it.each(ROLES)('%s', async (role) => {
    const m = MATRIX[role];
    const priv = await api.get(`/repos/${org}/${secret}`, as(role));
    if (m.private.see) {
      expectContract('GET', '/repos/{owner}/{repo}', priv);
      expect(priv.body.permissions).toEqual(perms(m.private.perms!));
      expect(priv.body).toMatchObject({ private: true, full_name: `${org}/${secret}` });
    } else {
      expectApiError(priv, 404);
    }
    const pub = await api.get(`/repos/${org}/${open}`, as(role));
    expectContract('GET', '/repos/{owner}/{repo}', pub);
    expect(pub.body.permissions).toEqual(perms(m.public.perms));
    expect(pub.body.private).toBe(false);
  });
});

describe('permission matrix: PATCH /repos/{owner}/{repo} (repository admins)', () => {
  const expected: Record<Role, { private: number; public: number }> = {
    anonymous: { private: 404, public: 401 },
    stranger: { private: 404, public: 403 },
    reader: { private: 403, public: 403 },
    writer: { private: 403, public: 403 },
    repoAdmin: { private: 200, public: 200 },
    orgOwner: { private: 200, public: 200 },
    siteAdmin: { private: 200, public: 200 },
  };
  it.each(ROLES)('%s', async (role) => {
    for (const [repo, kind] of [[secret, 'private'], [open, 'public']] as const) {
      const description = `edited by ${role}`;
      const res = await api.patch(`/repos/${org}/${repo}`, { ...as(role), body: { description } });
      const status = expected[role][kind];
      if (status === 200) {
        expectContract('PATCH', '/repos/{owner}/{repo}', res);
        expect(res.body.description).toBe(description);
      } else {
        expectApiError(res, status, status === 403 ? ADMIN_NEEDED : undefined);
      }
    }
  });
});

describe('permission matrix: DELETE /repos/{owner}/{repo} (owners)', () => {
  const refused: Partial<Record<Role, { private: number; public: number }>> = {
    anonymous: { private: 404, public: 401 },
    stranger: { private: 404, public: 403 },
    reader: { private: 403, public: 403 },
    writer: { private: 403, public: 403 },
    repoAdmin: { private: 403, public: 403 },
  };
  it.each(Object.keys(refused) as Role[])('%s may not delete', async (role) => {
    for (const [repo, kind] of [[secret, 'private'], [open, 'public']] as const) {
      const status = refused[role]![kind];
      expectApiError(await api.delete(`/repos/${org}/${repo}`, as(role)), status, status === 403 ? OWNER_NEEDED : undefined);
    }
    expect((await api.get(`/repos/${org}/${secret}`, { basic: orgOwner })).status).toBe(200);
    expect((await api.get(`/repos/${org}/${open}`, { basic: orgOwner })).status).toBe(200);
  });

  it.each(['orgOwner', 'siteAdmin'] as Role[])('%s deletes (204): the repository and its storage are gone', async (role) => {
    for (const isPrivate of [true, false]) {
      const name = uniqueName('doomed');
      await createOrgRepo(name, isPrivate);
      await withCollaborators(name);
      const dir = bareRepoPath(suite.dataDir, org, name);
      expect(existsSync(dir)).toBe(true);
      const res = await api.delete(`/repos/${org}/${name}`, as(role));
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      expectApiError(await api.get(`/repos/${org}/${name}`, { basic: admin }), 404);
      expect(existsSync(dir)).toBe(false);
      // The name is free again.
      await createOrgRepo(name, isPrivate, false);
    }
  });
});

describe('permission matrix: collaborators', () => {
  const changeExpected: Record<Role, { private: number; public: number }> = {
    anonymous: { private: 401, public: 401 },
    stranger: { private: 404, public: 403 },
    reader: { private: 403, public: 403 },
    writer: { private: 403, public: 403 },
    repoAdmin: { private: 204, public: 204 },
    orgOwner: { private: 204, public: 204 },
    siteAdmin: { private: 204, public: 204 },
  };

  it.each(ROLES)('%s: list, check and own permission', async (role) => {
    for (const [repo, kind] of [[secret, 'private'], [open, 'public']] as const) {
      const list = await api.get(`/repos/${org}/${repo}/collaborators`, as(role));
      const check = await api.get(`/repos/${org}/${repo}/collaborators/${reader.username}`, as(role));
      if (role === 'anonymous') {
        expectApiError(list, 401);
        expectApiError(check, 401);
        continue;
      }
      const self = accounts()[role as Exclude<Role, 'anonymous'>];
      const own = await api.get(`/repos/${org}/${repo}/collaborators/${self.username}/permission`, as(role));
      if (kind === 'private' && !MATRIX[role].private.see) {
        expectApiError(list, 404);
        expectApiError(check, 404);
        expectApiError(own, 404);
        continue;
      }
      expectContract('GET', '/repos/{owner}/{repo}/collaborators', list);
      expect(list.body.map((u: { login: string }) => u.login)).toEqual(
        expect.arrayContaining([reader.username, writer.username, repoAdmin.username]),
      );
      expect(list.headers.get('x-total-count')).toBe(String(list.body.length));
      expect(check.status, check.text).toBe(204);
      expectContract('GET', '/repos/{owner}/{repo}/collaborators/{username}/permission', own);
      const level = { stranger: 'read', reader: 'read', writer: 'write', repoAdmin: 'admin', orgOwner: 'owner', siteAdmin: 'owner' }[
        role as Exclude<Role, 'anonymous'>
      ];
      expect(own.body).toMatchObject({ user: { login: self.username } });
      // A site administrator's own level is checked on its own below (known defect).
      if (role !== 'siteAdmin') expect(own.body).toMatchObject({ permission: level, role_name: level });
    }
  });

  // Rendered users hide `is_admin`; repo-service reads the role from the lookup's `adminIds` instead.
  it('a site administrator’s permission is owner on every repository', async () => {
    for (const repo of [secret, open]) {
      const res = await api.get(`/repos/${org}/${repo}/collaborators/${admin.username}/permission`, { basic: orgOwner });
      expect(res.body).toMatchObject({ permission: 'owner', role_name: 'owner', user: { login: admin.username } });
    }
  });

  it.each(ROLES)('%s: add and remove a collaborator', async (role) => {
    for (const [repo, kind] of [[secret, 'private'], [open, 'public']] as const) {
      const status = changeExpected[role][kind];
      const put = await api.put(`/repos/${org}/${repo}/collaborators/${extra.username}`, { ...as(role), body: { permission: 'read' } });
      if (status !== 204) {
        expectApiError(put, status, status === 403 ? ADMIN_NEEDED : undefined);
        expectApiError(await api.delete(`/repos/${org}/${repo}/collaborators/${reader.username}`, as(role)), status);
        continue;
      }
      expect(put.status, put.text).toBe(204);
      expect(put.text).toBe('');
      expect((await api.get(`/repos/${org}/${repo}/collaborators/${extra.username}`, { basic: orgOwner })).status).toBe(204);
      const del = await api.delete(`/repos/${org}/${repo}/collaborators/${extra.username}`, as(role));
      expect(del.status, del.text).toBe(204);
      expectApiError(await api.get(`/repos/${org}/${repo}/collaborators/${extra.username}`, { basic: orgOwner }), 404);
    }
  });

  it('only admins may ask about someone else’s permission; others get 403', async () => {
    const other = await api.get(`/repos/${org}/${open}/collaborators/${writer.username}/permission`, { basic: reader });
    expectApiError(other, 403);
    for (const who of [repoAdmin, orgOwner, admin]) {
      const res = await api.get(`/repos/${org}/${open}/collaborators/${writer.username}/permission`, { basic: who });
      expect(res.body).toMatchObject({ permission: 'write', role_name: 'write', user: { login: writer.username } });
    }
    const missing = await api.get(`/repos/${org}/${open}/collaborators/${uniqueName('ghost')}/permission`, { basic: orgOwner });
    expectApiError(missing, 404);
  });
});

describe('a private repository the caller cannot see answers 404 everywhere (like a missing one)', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', ''],
    ['PATCH', '', { description: 'x' }],
    ['DELETE', ''],
    ['GET', '/collaborators'],
    ['GET', '/collaborators/READER'],
    ['PUT', '/collaborators/READER', { permission: 'write' }],
    ['DELETE', '/collaborators/READER'],
    ['GET', '/collaborators/READER/permission'],
    ['GET', '/branches'],
    ['GET', '/branches/main'],
    ['GET', '/contents'],
    ['GET', '/contents/README.md'],
    ['GET', '/raw/README.md'],
    ['GET', '/file-contents?body=%7B%22files%22%3A%5B%22README.md%22%5D%7D'],
    ['POST', '/file-contents', { files: ['README.md'] }],
    ['GET', '/commits'],
    ['GET', '/git/commits/main'],
  ];

  it.each(['stranger', 'anonymous'] as Role[])('%s', async (role) => {
    const ghost = uniqueName('ghost');
    for (const [method, suffix, body] of routes) {
      const path = suffix.replace('READER', reader.username);
      const hidden = await api.request(method, `/repos/${org}/${secret}${path}`, { ...as(role), body });
      const missing = await api.request(method, `/repos/${org}/${ghost}${path}`, { ...as(role), body });
      const what = `${role} ${method} …${path}`;
      expect(hidden.status, `${what}: ${hidden.text}`).toBe(missing.status);
      expect(hidden.body.message, what).toBe(missing.body.message);
      // Anonymous callers of routes that need a signed-in user hear 401 for both, as in Gitea; everything else is 404.
      expect(role === 'anonymous' ? [401, 404] : [404], `${what}: ${hidden.text}`).toContain(hidden.status);
      if (role === 'anonymous' && path.startsWith('/collaborators')) expect(hidden.status, what).toBe(401);
    }
    // And the repository is neither listed nor found by search.
    const listed = await api.get(`/orgs/${org}/repos`, as(role));
    expect(names(listed)).not.toContain(`${org}/${secret}`);
    const found = await api.get(`/repos/search?q=${secret}`, as(role));
    expect(found.body.data).toEqual([]);
  });
});

describe('token scopes on repository routes', () => {
  it('read:repository reads but cannot change; other categories cannot read', async () => {
    const readToken = await createToken(suite, repoAdmin, ['read:repository']);
    expect((await api.get(`/repos/${org}/${secret}`, { token: readToken })).status).toBe(200);
    expectApiError(
      await api.patch(`/repos/${org}/${secret}`, { token: readToken, body: { description: 'no' } }),
      403,
      scopeMessage('write:repository', ['read:repository']),
    );
    const userToken = await createToken(suite, repoAdmin, ['read:user']);
    expectApiError(
      await api.get(`/repos/${org}/${secret}`, { token: userToken }),
      403,
      scopeMessage('read:repository', ['read:user']),
    );
    const writeToken = await createToken(suite, repoAdmin, ['write:repository']);
    expect((await api.patch(`/repos/${org}/${secret}`, { token: writeToken, body: { website: 'https://example.com' } })).status).toBe(200);
  });
});

// ---- edit and delete ---------------------------------------------------------------------------------------------

describe('PATCH /repos/{owner}/{repo}', () => {
  it('renames: the old name is gone, the storage moved, and the new name clones', async () => {
    const from = uniqueName('before');
    const to = uniqueName('after');
    expect((await api.post('/user/repos', { basic: alice, body: { name: from, auto_init: true } })).status).toBe(201);
    const res = await api.patch(`/repos/${alice.username}/${from}`, { basic: alice, body: { name: to } });
    expectContract('PATCH', '/repos/{owner}/{repo}', res);
    expect(res.body).toMatchObject({ name: to, full_name: `${alice.username}/${to}`, clone_url: `${suite.rootUrl}${alice.username}/${to}.git` });
    expectApiError(await api.get(`/repos/${alice.username}/${from}`, { basic: alice }), 404);
    expect((await api.get(`/repos/${alice.username}/${to}`, { basic: alice })).status).toBe(200);
    expect(existsSync(bareRepoPath(suite.dataDir, alice.username, from))).toBe(false);
    expect(existsSync(bareRepoPath(suite.dataDir, alice.username, to))).toBe(true);
    const clone = ws.dir('renamed');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, to, { username: alice.username, secret: alice.password }), clone]);
    expect(await git.ok(['log', '--format=%s'], { cwd: clone })).toBe('Initial commit');
  });

  it('changes description, website, visibility and the default branch (to an existing branch only)', async () => {
    const name = uniqueName('edit');
    expect((await api.post('/user/repos', { basic: alice, body: { name, auto_init: true } })).status).toBe(201);
    // A second branch, pushed with git.
    const clone = ws.dir('edit');
    const url = httpCloneUrl(suite.baseUrl, alice.username, name, { username: alice.username, secret: alice.password });
    await git.ok(['clone', '-q', url, clone]);
    await git.ok(['checkout', '-q', '-b', 'stable'], { cwd: clone });
    await commitAll(git, clone, { 'STABLE.md': 'stable\n' }, 'stable branch');
    await git.ok(['push', '-q', 'origin', 'stable'], { cwd: clone });

    const res = await api.patch(`/repos/${alice.username}/${name}`, {
      basic: alice,
      body: { description: 'new words', website: 'https://example.org', private: true, default_branch: 'stable', has_issues: false },
    });
    expectContract('PATCH', '/repos/{owner}/{repo}', res);
    expect(res.body).toMatchObject({
      description: 'new words', website: 'https://example.org', private: true, default_branch: 'stable', has_issues: false,
    });
    // Private now: anonymous callers no longer see it; the default branch is what a fresh clone checks out.
    expectApiError(await api.get(`/repos/${alice.username}/${name}`), 404);
    const fresh = ws.dir('fresh');
    await git.ok(['clone', '-q', url, fresh]);
    expect(await git.ok(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: fresh })).toBe('stable');

    expectApiError(
      await api.patch(`/repos/${alice.username}/${name}`, { basic: alice, body: { default_branch: 'nope' } }),
      422,
      'branch "nope" does not exist',
    );
    // An empty body changes nothing.
    const same = await api.patch(`/repos/${alice.username}/${name}`, { basic: alice, body: {} });
    expect(same.status).toBe(200);
    expect(same.body.default_branch).toBe('stable');
  });

  it('refuses invalid, reserved and taken names (422) and bad bodies (400/422)', async () => {
    const name = uniqueName('keep');
    const other = uniqueName('taken');
    for (const n of [name, other]) expect((await api.post('/user/repos', { basic: alice, body: { name: n } })).status).toBe(201);
    const patch = (body: unknown) => api.patch(`/repos/${alice.username}/${name}`, { basic: alice, body });
    expectApiError(await patch({ name: 'a b' }), 422, /name is invalid/);
    expectApiError(await patch({ name: '..' }), 422, 'repo name is reserved [name: ..]');
    expectApiError(await patch({ name: 'x.git' }), 422, "repo name's pattern is not allowed [name: x.git]");
    expectApiError(await patch({ name: other }), 422, `repo name is already taken [name: ${other}]`);
    expectApiError(await patch({ private: 'no' }), 422, /private must be a boolean/);
    expectApiError(await patch({ default_merge_style: 'octopus' }), 422);
    expectApiError(await api.patch(`/repos/${alice.username}/${name}`, { basic: alice, body: '{', headers: { 'content-type': 'application/json' } }), 400);
    // Nothing changed.
    expect((await api.get(`/repos/${alice.username}/${name}`, { basic: alice })).body.name).toBe(name);
  });
});

describe('DELETE /repos/{owner}/{repo}', () => {
  it('deletes a user repository and its storage (204); deleting again is 404', async () => {
    const name = uniqueName('gone');
    expect((await api.post('/user/repos', { basic: alice, body: { name, auto_init: true } })).status).toBe(201);
    const dir = bareRepoPath(suite.dataDir, alice.username, name);
    expect(existsSync(dir)).toBe(true);
    expect((await api.delete(`/repos/${alice.username}/${name}`, { basic: alice })).status).toBe(204);
    expect(existsSync(dir)).toBe(false);
    expectApiError(await api.delete(`/repos/${alice.username}/${name}`, { basic: alice }), 404);
    const clone = await git.try(['ls-remote', httpCloneUrl(suite.baseUrl, alice.username, name, { username: alice.username, secret: alice.password })]);
    expect(clone.code).not.toBe(0);
  });
});

// ---- lists and search --------------------------------------------------------------------------------------------

describe('lists', () => {
  it('GET /user/repos: own, collaborative and organization repositories, with paging headers', async () => {
    const res = await api.get('/user/repos?limit=50', { basic: reader });
    expectContract('GET', '/user/repos', res);
    expect(names(res)).toEqual(expect.arrayContaining([`${org}/${secret}`, `${org}/${open}`]));
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
    const secretEntry = res.body.find((r: { name: string }) => r.name === secret);
    expect(secretEntry.permissions).toEqual({ admin: false, push: false, pull: true });

    const own = await api.get('/user/repos', { basic: stranger });
    expect(own.body).toEqual([]);
    expect(own.headers.get('x-total-count')).toBe('0');
    expectApiError(await api.get('/user/repos'), 401);

    const page = await api.get('/user/repos?limit=1&page=1', { basic: orgOwner });
    expect(page.body).toHaveLength(1);
    expect(Number(page.headers.get('x-total-count'))).toBeGreaterThan(1);
    expect(page.headers.get('link')).toContain('rel="next"');
  });

  it('GET /users/{username}/repos: private repositories only for those who may see them', async () => {
    const pub = uniqueName('pubrepo');
    const priv = uniqueName('privrepo');
    const owner = await createUser(suite, admin, uniqueName('lister'));
    expect((await api.post('/user/repos', { basic: owner, body: { name: pub } })).status).toBe(201);
    expect((await api.post('/user/repos', { basic: owner, body: { name: priv, private: true } })).status).toBe(201);
    const full = (n: string) => `${owner.username}/${n}`;

    const anonymous = await api.get(`/users/${owner.username}/repos`);
    expectContract('GET', '/users/{username}/repos', anonymous);
    expect(names(anonymous)).toEqual([full(pub)]);
    expect(anonymous.headers.get('x-total-count')).toBe('1');
    expect(names(await api.get(`/users/${owner.username}/repos`, { basic: stranger }))).toEqual([full(pub)]);
    expect(names(await api.get(`/users/${owner.username}/repos`, { basic: owner }))).toEqual([full(priv), full(pub)].sort());
    expect(names(await api.get(`/users/${owner.username}/repos`, { basic: admin }))).toEqual([full(priv), full(pub)].sort());
    await addCollaborator(owner.username, priv, reader, 'read', owner);
    expect(names(await api.get(`/users/${owner.username}/repos`, { basic: reader }))).toEqual([full(priv), full(pub)].sort());
    expectApiError(await api.get(`/users/${uniqueName('ghost')}/repos`), 404);
  });

  it('GET /orgs/{org}/repos: the public ones for everyone, the private one for its collaborators and owners', async () => {
    const anonymous = await api.get(`/orgs/${org}/repos?limit=50`);
    expectContract('GET', '/orgs/{org}/repos', anonymous);
    expect(names(anonymous)).toContain(`${org}/${open}`);
    expect(names(anonymous)).not.toContain(`${org}/${secret}`);
    for (const who of [reader, orgOwner, admin]) {
      expect(names(await api.get(`/orgs/${org}/repos?limit=50`, { basic: who }))).toEqual(
        expect.arrayContaining([`${org}/${open}`, `${org}/${secret}`]),
      );
    }
    expectApiError(await api.get(`/orgs/${uniqueName('ghost')}/repos`), 404);
    expectApiError(await api.get(`/orgs/${alice.username}/repos`), 404);
  });

  it('GET /repos/search: keyword, visibility, paging, and Gitea’s {ok, data} body', async () => {
    const anonymous = await api.get(`/repos/search?q=${open}`);
    expectContract('GET', '/repos/search', anonymous);
    expect(anonymous.body.ok).toBe(true);
    expect(names({ ...anonymous, body: anonymous.body.data })).toEqual([`${org}/${open}`]);
    expect(anonymous.headers.get('x-total-count')).toBe('1');

    const seen = await api.get(`/repos/search?q=${secret}`, { basic: reader });
    expect(seen.body.data.map((r: { full_name: string }) => r.full_name)).toEqual([`${org}/${secret}`]);
    expect(seen.body.data[0].permissions).toEqual({ admin: false, push: false, pull: true });

    const paged = await api.get('/repos/search?limit=1&sort=created&order=desc', { basic: admin });
    expect(paged.body.data).toHaveLength(1);
    expect(Number(paged.headers.get('x-total-count'))).toBeGreaterThan(1);
    expect(paged.headers.get('link')).toContain('rel="next"');

    expectApiError(await api.get('/repos/search?sort=stars'), 422, 'Invalid sort mode: "stars"');
    expectApiError(await api.get('/repos/search?sort=alpha&order=sideways'), 422, 'Invalid sort order: "sideways"');
    expectApiError(await api.get('/repos/search?mode=weird'), 422, 'Invalid search mode: "weird"');
    expectClientError(await api.get('/repos/search?uid=abc'));
  });
});

// ---- collaborators: bad input --------------------------------------------------------------------------------------

describe('collaborators: bad input', () => {
  it('refuses unknown permissions (422), unknown users (404), organizations and the owner (422)', async () => {
    const base = `/repos/${org}/${open}/collaborators`;
    expectApiError(await api.put(`${base}/${stranger.username}`, { basic: orgOwner, body: { permission: 'owner' } }), 422);
    expectApiError(await api.put(`${base}/${stranger.username}`, { basic: orgOwner, body: { permission: 7 } }), 422);
    expectApiError(await api.put(`${base}/${uniqueName('ghost')}`, { basic: orgOwner, body: { permission: 'read' } }), 404);
    expectApiError(await api.put(`${base}/${org}`, { basic: orgOwner, body: { permission: 'read' } }), 422);
    const own = uniqueName('own');
    expect((await api.post('/user/repos', { basic: alice, body: { name: own } })).status).toBe(201);
    expectApiError(
      await api.put(`/repos/${alice.username}/${own}/collaborators/${alice.username}`, { basic: alice, body: {} }),
      422,
    );
    expectApiError(await api.get(`${base}/${uniqueName('ghost')}`, { basic: orgOwner }), 404);
  });

  it('defaults to write, and a second PUT changes the permission; removal takes the access away', async () => {
    const name = uniqueName('collab');
    expect((await api.post('/user/repos', { basic: alice, body: { name, private: true } })).status).toBe(201);
    const base = `/repos/${alice.username}/${name}/collaborators/${stranger.username}`;
    expect((await api.put(base, { basic: alice, body: {} })).status).toBe(204);
    expect((await api.get(`${base}/permission`, { basic: alice })).body.permission).toBe('write');
    expect((await api.get(`/repos/${alice.username}/${name}`, { basic: stranger })).body.permissions).toEqual({
      admin: false, push: true, pull: true,
    });
    expect((await api.put(base, { basic: alice, body: { permission: 'read' } })).status).toBe(204);
    expect((await api.get(`${base}/permission`, { basic: alice })).body.permission).toBe('read');
    expect((await api.delete(base, { basic: alice })).status).toBe(204);
    expectApiError(await api.get(`/repos/${alice.username}/${name}`, { basic: stranger }), 404);
  });
});

describe('odd owner and repository names in API paths', () => {
  it.each([
    '..%2F..%2Fetc/passwd',
    `${'a'.repeat(300)}/x`,
    'al%00ice/x',
    'alice/x%00y',
    'alice/--upload-pack=evil',
    '-owner/-repo',
    'alice/x%0Ay',
    '%20/%20',
    'alice/..%2F..%2Fetc',
  ])('GET /repos/%s → a clean 4xx', async (path) => {
    for (const who of [{}, { basic: alice }]) {
      const res = await api.get(`/repos/${path}`, who);
      expectClientError(res);
      const contents = await api.get(`/repos/${path}/contents/README.md`, who);
      expectClientError(contents);
    }
  });
});
