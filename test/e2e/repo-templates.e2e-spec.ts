/**
 * Repository templates end to end: Gitea's template APIs (`/gitignore/templates[/{name}]`, `/licenses[/{name}]`,
 * public, Gitea's shapes) and `auto_init` with `gitignores` and `license` — the first commit, cloned with real git,
 * holds README.md, the chosen `.gitignore` templates joined as Gitea joins them and the licence with year and owner
 * filled in; unknown names are a 422 and create nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { expectApiError, expectContract } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
let git: Git;
let alice: Account;
let org: string;
const ws = workspace('cairn-e2e-templates-');

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('tmpl'));
  org = uniqueName('tmplorg');
  expect((await api.post('/orgs', { basic: alice, body: { username: org } })).status).toBe(201);
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

/** Clones owner/name over HTTP; answers the clone's folder. */
async function clone(owner: string, name: string): Promise<string> {
  const dir = ws.dir(`clone-${owner}-${name}`);
  await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, owner, name, { username: alice.username, secret: alice.password }), dir]);
  return dir;
}

describe('template APIs', () => {
  it('lists the gitignore templates and serves one as {name, source}, without signing in', async () => {
    const list = await api.get<string[]>('/gitignore/templates');
    expectContract('GET', '/gitignore/templates', list);
    for (const name of ['Node', 'Go', 'Python', 'Java', 'Rust', 'C', 'C++', 'macOS']) expect(list.body).toContain(name);
    const go = await api.get('/gitignore/templates/Go');
    expectContract('GET', '/gitignore/templates/{name}', go);
    expect(go.body.name).toBe('Go');
    expect(go.body.source).toMatch(/^\*\.exe$/m);
    // Names match ignoring case and answer the canonical one.
    expect((await api.get('/gitignore/templates/node')).body.name).toBe('Node');
    expectApiError(await api.get('/gitignore/templates/Cobol'), 404);
  });

  it('lists the licences as [{key, name, url}] and serves one with its unfilled text', async () => {
    const list = await api.get<Array<{ key: string; name: string; url: string }>>('/licenses');
    expectContract('GET', '/licenses', list);
    expect(list.body.map((l) => l.key)).toEqual(expect.arrayContaining([
      'MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'GPL-2.0-only', 'GPL-3.0-only', 'MPL-2.0', 'Unlicense',
    ]));
    expect(list.body.find((l) => l.key === 'MIT')).toEqual({
      key: 'MIT', name: 'MIT License', url: `${suite.rootUrl}api/v1/licenses/MIT`,
    });
    const mit = await api.get('/licenses/MIT');
    expectContract('GET', '/licenses/{name}', mit);
    expect(mit.body).toMatchObject({ key: 'MIT', name: 'MIT License', implementation: expect.stringContaining('LICENSE') });
    expect(mit.body.body).toContain('Copyright (c) <year> <copyright holders>');
    expectApiError(await api.get('/licenses/WTFPL'), 404);
  });
});

describe('auto_init with gitignores and license', () => {
  it('commits README.md, the joined .gitignore and the filled LICENSE in the one initial commit', async () => {
    const name = uniqueName('tmplrepo');
    const res = await api.post('/user/repos', {
      basic: alice,
      body: { name, auto_init: true, gitignores: 'Node,Go', license: 'MIT', description: 'with templates' },
    });
    expectContract('POST', '/user/repos', res, 201);
    expect(res.body.empty).toBe(false);

    const dir = await clone(alice.username, name);
    expect(await git.ok(['rev-list', '--count', 'HEAD'], { cwd: dir })).toBe('1');
    expect((await git.ok(['ls-tree', '--name-only', 'HEAD'], { cwd: dir })).split('\n').sort()).toEqual(['.gitignore', 'LICENSE', 'README.md']);

    // What the template APIs serve, put together as Gitea does, in the order asked for.
    const node = (await api.get('/gitignore/templates/Node')).body.source as string;
    const go = (await api.get('/gitignore/templates/Go')).body.source as string;
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(`# ---> Node\n${node}\n# ---> Go\n${go}\n`);
    const template = (await api.get('/licenses/MIT')).body.body as string;
    const license = readFileSync(join(dir, 'LICENSE'), 'utf8');
    const year = String(new Date().getUTCFullYear());
    expect(license).toContain(`Copyright (c) ${year} ${alice.username}\n`);
    expect(license).toBe(`${template.replace('<year>', year).replace('<copyright holders>', alice.username)}\n`);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(`# ${name}\n\nwith templates\n`);
  });

  it('fills an organization repository\'s licence with the organization\'s name', async () => {
    const res = await api.post(`/orgs/${org}/repos`, { basic: alice, body: { name: 'lib', auto_init: true, license: 'BSD-3-Clause' } });
    expect(res.status, res.text).toBe(201);
    const dir = await clone(org, 'lib');
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toContain(`Copyright (c) ${new Date().getUTCFullYear()} ${org}.`);
    expect((await git.ok(['ls-tree', '--name-only', 'HEAD'], { cwd: dir })).split('\n').sort()).toEqual(['LICENSE', 'README.md']);
  });

  it('refuses an unknown licence or gitignore with 422 and creates nothing', async () => {
    const name = uniqueName('tmplbad');
    expectApiError(
      await api.post('/user/repos', { basic: alice, body: { name, auto_init: true, license: 'WTFPL' } }), 422, 'unknown license "WTFPL"',
    );
    expectApiError(
      await api.post('/user/repos', { basic: alice, body: { name, auto_init: true, gitignores: 'Go,Cobol' } }), 422, 'unknown gitignore "Cobol"',
    );
    expect((await api.get(`/repos/${alice.username}/${name}`, { basic: alice })).status).toBe(404);
  });
});
