/**
 * `[security] TWO_FACTOR_AUTH = enforced` end to end (issue 9, item 5): a signed-in user without two-factor gets no
 * repository data by any way — no private repository in `/user/repos`, `/repos/search`, `/users/{u}/repos`,
 * `/orgs/{org}/repos`; no repository route, web page, or git over HTTP or SSH; no organization hooks (their deliveries
 * carry private payloads); no admin routes; no `Sudo` by an administrator who did not enrol — and every refusal says
 * how to enrol. Nor by the other lists (issue 25, finding 4): `/user/subscriptions`, `/users/{u}/subscriptions`,
 * `/notifications` and `/notifications/threads/{id}` leave private repositories out, and a private organization's
 * packages are neither read nor published over generic (curl), npm (the npm CLI), `/api/v1/packages` or OCI
 * (`/v2/_catalog`, skopeo). Enrolment goes through the API (`POST /user/2fa`, `POST /user/2fa/confirm`), after which the same
 * calls succeed; `DELETE /user/2fa` puts the user back where they started. Codes come from an independent RFC 6238
 * generator (test/support/totp.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmClient, writePackage } from '../support/npm-cli.js';
import { buildImageLayout, skopeo, skopeoAvailable } from '../support/oci-layout.js';
import { createOrg, curl, genericFileUrl, registryUrls } from '../support/packages.js';
import { basicAuth, sharedTestSuite, type Account, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { createToken, createUser, http, uniqueName, webSessionCookie, type HttpClient } from '../support/session.js';
import {
  generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, redact, sshCloneUrl, workspace,
  type Git, type KeyPair, type RunResult,
} from '../support/git.js';
import { totpCode, totpStep, wrongTotpCode } from '../support/totp.js';
import { expectApiError, expectContract } from './identity-helpers.js';

/** What every refusal under the policy must say: the cause and the enrolment route. */
const ENROL_HINT = /requires two-factor authentication \(\[security\] TWO_FACTOR_AUTH = enforced\): enrol with POST \/api\/v1\/user\/2fa\b/;

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-2fa-');
let git: Git;

/** The setup administrator (enrolled first, so it can create users) and its token. */
let root: Account;
let rootToken: string;
/** An administrator who does not enrol until late: admin routes and Sudo are refused to them. */
let lazyAdmin: Account;
let lazyToken: string;
/** Owner of an organization and of private repositories; enrols in the middle of the file. */
let alice: Account;
let aliceToken: string;
let aliceKey: KeyPair;
/** Enrolled from the start; owns a private repository with a README. */
let bob: Account;
let bobToken: string;

let org: string;
const repos = { mine: '', shown: '', orgSecret: '', orgOpen: '', bobSecret: '' };
/** A private organization of alice's holding a generic, an npm and (with skopeo) a container package. */
let privateOrg: string;
const NPM_PACKAGE = () => `@${privateOrg}/secret`;
const withSkopeo = skopeoAvailable();
/** The issue in the organization's private repository that mentions alice (her notification thread's subject). */
const SECRET_TITLE = 'secret title of a private issue';
let secretThreadId = 0;

/** Enrols an account through the API (Basic with the password) and returns the TOTP secret and recovery code. */
async function enrol(account: Account): Promise<{ secret: string; scratch: string; step: number }> {
  const started = await api.post('/user/2fa', { basic: account });
  expectContract('POST', '/user/2fa', started, 201);
  const secret: string = started.body.secret;
  const step = totpStep();
  const confirmed = await api.post('/user/2fa/confirm', { basic: account, body: { passcode: totpCode(secret, step) } });
  expectContract('POST', '/user/2fa/confirm', confirmed, 200);
  return { secret, scratch: confirmed.body.scratch_token, step };
}

const names = (res: { body: unknown }) => (res.body as { name: string }[]).map((r) => r.name);

async function listsOf(token: string) {
  const [mine, search, user, orgList] = await Promise.all([
    api.get('/user/repos?limit=50', { token }),
    api.get('/repos/search?limit=50', { token }),
    api.get(`/users/${alice.username}/repos?limit=50`, { token }),
    api.get(`/orgs/${org}/repos?limit=50`, { token }),
  ]);
  for (const res of [mine, search, user, orgList]) expect(res.status, res.text).toBe(200);
  return {
    '/user/repos': names(mine),
    '/repos/search': (search.body as { data: { name: string }[] }).data.map((r) => r.name),
    '/users/{u}/repos': names(user),
    '/orgs/{org}/repos': names(orgList),
  };
}

async function cloneHttp(account: Pick<Account, 'username'>, secret: string, owner: string, repo: string): Promise<RunResult> {
  return git.try(['clone', '-q', httpCloneUrl(suite.baseUrl, owner, repo, { username: account.username, secret }), ws.dir('clone')]);
}

async function cloneSsh(key: KeyPair, owner: string, repo: string): Promise<RunResult> {
  return git.try(['clone', '-q', sshCloneUrl(suite.sshPort, owner, repo), ws.dir('clone')], {
    env: { GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) },
  });
}

function expectGitRefusedWithHint(r: RunResult, what: string): void {
  expect(r.code, `${what} should fail:\n${redact(r.stderr)}`).not.toBe(0);
  expect(redact(r.stderr), what).toMatch(ENROL_HINT);
}

const inactiveHook = { type: 'gitea', active: false, config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' } };

beforeAll(async () => {
  // Shared with the other files under TWO_FACTOR_AUTH = enforced (web-settings, web-require-signin).
  suite = await sharedTestSuite({ env: { CAIRN__SECURITY__TWO_FACTOR_AUTH: 'enforced' } });
  api = http(suite);
  git = gitRunner(ws.dir('home'));

  // Tokens first: they keep working after enrolment, so no test needs a second code within one time step.
  root = await suite.createAdmin();
  rootToken = await createToken(suite, root);
  await enrol(root);
  const rootAuth = basicAuth(root.username, rootToken);
  [alice, bob] = await Promise.all([createUser(suite, rootAuth, uniqueName('alice')), createUser(suite, rootAuth, uniqueName('bob'))]);
  lazyAdmin = await suite.createAdmin();
  [aliceToken, bobToken, lazyToken] = await Promise.all([alice, bob, lazyAdmin].map((a) => createToken(suite, a)));
  await enrol(bob);

  org = uniqueName('org');
  expect((await api.post('/orgs', { token: aliceToken, body: { username: org } })).status).toBe(201);
  repos.mine = uniqueName('mine');
  repos.shown = uniqueName('shown');
  repos.orgSecret = uniqueName('org-secret');
  repos.orgOpen = uniqueName('org-open');
  repos.bobSecret = uniqueName('bob-secret');
  const created = await Promise.all([
    api.post('/user/repos', { token: aliceToken, body: { name: repos.mine, private: true, auto_init: true } }),
    api.post('/user/repos', { token: aliceToken, body: { name: repos.shown, private: false, auto_init: true } }),
    api.post(`/orgs/${org}/repos`, { token: aliceToken, body: { name: repos.orgSecret, private: true, auto_init: true } }),
    api.post(`/orgs/${org}/repos`, { token: aliceToken, body: { name: repos.orgOpen, private: false } }),
    api.post('/user/repos', { token: bobToken, body: { name: repos.bobSecret, private: true, auto_init: true } }),
  ]);
  for (const res of created) expect(res.status, res.text).toBe(201);

  // Packages of a private organization of alice's, published by the enrolled site administrator.
  privateOrg = await createOrg(suite, alice, 'private');
  const put = await curl(['-X', 'PUT', '-H', `Authorization: token ${rootToken}`, '--data-binary', 'secret bytes',
    genericFileUrl(suite, privateOrg, 'secret', '1.0.0', 'secret.txt')]);
  expect(put.status, put.body.toString()).toBe(201);
  const npm = npmClient(registryUrls(suite, privateOrg).npm, { token: rootToken });
  try {
    await npm.run(['publish'], { cwd: writePackage(npm.dir, { name: NPM_PACKAGE(), version: '1.0.0', main: 'index.js' }, { 'index.js': '1;\n' }) });
  } finally {
    npm.dispose();
  }
  if (withSkopeo) {
    const layout = ws.dir('image');
    buildImageLayout(layout, 'v1', 'secret');
    const pushed = await skopeo(['copy', '--dest-tls-verify=false', '--dest-creds', `${root.username}:${rootToken}`, `oci:${layout}:v1`,
      `docker://${registryUrls(suite, privateOrg).containerHost}/${privateOrg}/secret:v1`]);
    expect(pushed.code, pushed.stderr).toBe(0);
  }

  // An issue in the organization's private repository mentioning alice: her notification thread, once delivered.
  const issue = await api.post(`/repos/${org}/${repos.orgSecret}/issues`, { token: rootToken, body: { title: SECRET_TITLE, body: `@${alice.username}` } });
  expect(issue.status, issue.text).toBe(201);
  const db = new pg.Client({ connectionString: suite.databaseUrl });
  await db.connect();
  try {
    const thread = await waitFor(async () => (await db.query<{ id: number }>(
      'SELECT n.id FROM repo.notifications n JOIN repo.issues i ON i.id = n.issue_id WHERE i.title = $1 AND n.user_id = (SELECT id FROM identity.users WHERE name = $2)',
      [SECRET_TITLE, alice.username],
    )).rows[0], 'alice\'s notification thread');
    secretThreadId = thread.id;
  } finally {
    await db.end();
  }

  aliceKey = await generateSshKey(ws.dir('key-alice'), 'alice@e2e');
  const key = await api.post('/user/keys', { token: aliceToken, body: { title: 'laptop', key: aliceKey.publicKey } });
  expect(key.status, key.text).toBe(201);
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('a user who must enrol', () => {
  it('sees no private repository in any list, only public ones', async () => {
    const lists = await listsOf(aliceToken);
    for (const [route, listed] of Object.entries(lists)) {
      expect(listed, route).not.toContain(repos.mine);
      expect(listed, route).not.toContain(repos.orgSecret);
      expect(listed, route).not.toContain(repos.bobSecret);
    }
    expect(lists['/user/repos']).toContain(repos.shown);
    expect(lists['/users/{u}/repos']).toContain(repos.shown);
    expect(lists['/orgs/{org}/repos']).toContain(repos.orgOpen);
    expect(lists['/repos/search']).toEqual(expect.arrayContaining([repos.shown, repos.orgOpen]));
    // An enrolled user still sees their own private repository.
    expect(names(await api.get('/user/repos', { token: bobToken }))).toContain(repos.bobSecret);
  });

  it('sees no private repository in subscriptions and no notification thread of one', async () => {
    for (const route of ['/user/subscriptions', `/users/${alice.username}/subscriptions`]) {
      const res = await api.get(route, { token: aliceToken });
      expect(res.status, res.text).toBe(200);
      expect(names(res), route).not.toContain(repos.mine);
      expect(names(res), route).not.toContain(repos.orgSecret);
      expect(names(res), route).toContain(repos.shown);
    }
    const threads = await api.get('/notifications?all=true', { token: aliceToken });
    expect(threads.status, threads.text).toBe(200);
    expect(threads.text).not.toContain(SECRET_TITLE);
    expect(threads.text).not.toContain(repos.orgSecret);
    // Nor the thread itself by its id.
    const one = await api.get(`/notifications/threads/${secretThreadId}`, { token: aliceToken });
    expect(one.status, one.text).toBe(404);
    expect(one.text).not.toContain(SECRET_TITLE);
  });

  it('neither reads nor publishes a private organization\'s packages: generic, npm, the packages API, OCI', async () => {
    const file = genericFileUrl(suite, privateOrg, 'secret', '1.0.0', 'secret.txt');
    const read = await curl(['-u', `${alice.username}:${aliceToken}`, file]);
    expect(read.status).toBe(403);
    expect(read.body.toString()).toMatch(ENROL_HINT);
    const publish = await curl(['-X', 'PUT', '-u', `${alice.username}:${aliceToken}`, '--data-binary', 'x',
      genericFileUrl(suite, privateOrg, 'planted', '1.0.0', 'x.txt')]);
    expect(publish.status).toBe(403);

    const npm = npmClient(registryUrls(suite, privateOrg).npm, { token: aliceToken });
    try {
      const view = await npm.run(['view', NPM_PACKAGE(), 'version'], { allowFailure: true });
      expect(view.code, view.stdout).not.toBe(0);
      expect(view.stdout).not.toContain('1.0.0');
      const planted = await npm.run(['publish'], {
        cwd: writePackage(npm.dir, { name: `@${privateOrg}/planted`, version: '1.0.0', main: 'index.js' }, { 'index.js': '1;\n' }),
        allowFailure: true,
      });
      expect(planted.code).not.toBe(0);
    } finally {
      npm.dispose();
    }

    expectApiError(await api.get(`/packages/${privateOrg}`, { token: aliceToken }), 403, ENROL_HINT);
    const catalog = await fetch(`${suite.baseUrl}/v2/_catalog`, { headers: { authorization: basicAuth(alice.username, aliceToken) } });
    expect(catalog.status).toBe(200);
    expect(((await catalog.json()) as { repositories: string[] }).repositories.filter((r) => r.startsWith(`${privateOrg}/`))).toEqual([]);
    if (withSkopeo) {
      const pulled = await skopeo(['inspect', '--tls-verify=false', '--creds', `${alice.username}:${aliceToken}`,
        `docker://${registryUrls(suite, privateOrg).containerHost}/${privateOrg}/secret:v1`]);
      expect(pulled.code).not.toBe(0);
    }
  });

  it('gets a 404 that says how to enrol from repository routes and web pages, for every repository alike', async () => {
    for (const path of [`/repos/${alice.username}/${repos.mine}`, `/repos/${alice.username}/${repos.shown}`, `/repos/${alice.username}/nope`]) {
      expectApiError(await api.get(path, { token: aliceToken }), 404, ENROL_HINT);
    }
    expectApiError(await api.get(`/repos/${org}/${repos.orgSecret}/hooks`, { token: aliceToken }), 404, ENROL_HINT);
    const page = await fetch(`${suite.baseUrl}/${alice.username}/${repos.mine}/pulls/1`, {
      headers: { cookie: await webSessionCookie(suite, alice) },
    });
    expect(page.status).toBe(404);
    expect(await page.text()).toMatch(ENROL_HINT);
  });

  it('cannot clone over HTTP or SSH, and git shows why', async () => {
    expectGitRefusedWithHint(await cloneHttp(alice, alice.password, alice.username, repos.mine), 'HTTP clone with the password');
    expectGitRefusedWithHint(await cloneHttp(alice, aliceToken, org, repos.orgSecret), 'HTTP clone with a token');
    expectGitRefusedWithHint(await cloneSsh(aliceKey, alice.username, repos.mine), 'SSH clone');
  });

  it('cannot use organization hooks, whose deliveries carry private payloads', async () => {
    expectApiError(await api.post(`/orgs/${org}/hooks`, { token: aliceToken, body: inactiveHook }), 403, ENROL_HINT);
    expectApiError(await api.get(`/orgs/${org}/hooks`, { token: aliceToken }), 403, ENROL_HINT);
  });

  it('as a site administrator, may use neither admin routes nor Sudo', async () => {
    expectApiError(await api.get('/admin/users', { token: lazyToken }), 403, ENROL_HINT);
    expectApiError(await api.post('/admin/hooks', { token: lazyToken, body: inactiveHook }), 403, ENROL_HINT);
    // Acting as an enrolled user must not bypass the administrator's own enrolment.
    const sudo = await api.get(`/repos/${bob.username}/${repos.bobSecret}/contents/README.md`, {
      token: lazyToken,
      headers: { sudo: bob.username },
    });
    expectApiError(sudo, 403, /^Sudo \(by admin-[0-9a-f]+\) requires two-factor authentication/);
    expectApiError(sudo, 403, ENROL_HINT);
    // An enrolled administrator acting as a user who must enrol gets what that user gets.
    const asAlice = await api.get(`/repos/${alice.username}/${repos.mine}`, { token: rootToken, headers: { sudo: alice.username } });
    expectApiError(asAlice, 404, ENROL_HINT);
    const asBob = await api.get(`/repos/${bob.username}/${repos.bobSecret}/contents/README.md`, {
      token: rootToken,
      headers: { sudo: bob.username },
    });
    expect(asBob.status, asBob.text).toBe(200);
  });
});

describe('enrolling through the API', () => {
  let aliceSecret: string;
  let aliceRecovery: string;
  let confirmedStep: number;

  it('needs the password itself, not a token', async () => {
    expectApiError(await api.post('/user/2fa', { token: aliceToken }), 401, /Basic authentication with your password/);
    expectApiError(await api.post('/user/2fa'), 401);
    expectApiError(await api.post('/user/2fa/confirm', { token: aliceToken, body: { passcode: '123456' } }), 401);
  });

  it('starts pending, is activated by a current code only, and then asks for codes at sign-in', async () => {
    expectApiError(await api.post('/user/2fa/confirm', { basic: alice, body: { passcode: '123456' } }), 422, /POST \/api\/v1\/user\/2fa/);
    const started = await api.post('/user/2fa', { basic: alice });
    expectContract('POST', '/user/2fa', started, 201);
    aliceSecret = started.body.secret;
    expect(aliceSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauth_url).toBe(
      `otpauth://totp/Cairn%3A${alice.username}?secret=${aliceSecret}&issuer=Cairn&algorithm=SHA1&digits=6&period=30`,
    );
    // Pending changes nothing yet: the password alone still signs in, and repository data stays out of reach.
    expect((await api.get('/user', { basic: alice })).status).toBe(200);
    expect(names(await api.get('/user/repos', { token: aliceToken }))).not.toContain(repos.mine);
    expectApiError(await api.post('/user/2fa/confirm', { basic: alice, body: { passcode: 'abc' } }), 422, /6-digit/);
    expectApiError(
      await api.post('/user/2fa/confirm', { basic: alice, body: { passcode: wrongTotpCode(aliceSecret) } }),
      422,
      /invalid two-factor authentication code/,
    );

    confirmedStep = totpStep();
    const confirmed = await api.post('/user/2fa/confirm', { basic: alice, body: { passcode: totpCode(aliceSecret, confirmedStep) } });
    expectContract('POST', '/user/2fa/confirm', confirmed, 200);
    expect(confirmed.body.scratch_token).toMatch(/^[A-Za-z0-9]{12}$/);
    aliceRecovery = confirmed.body.scratch_token;

    expectApiError(await api.get('/user', { basic: alice }), 401, /X-Gitea-OTP/);
    expectApiError(await api.post('/user/2fa', { basic: alice }), 401, /X-Gitea-OTP/);
  });

  it('opens the same lists, routes, git transports and hooks', async () => {
    const lists = await listsOf(aliceToken);
    expect(lists['/user/repos']).toEqual(expect.arrayContaining([repos.mine, repos.orgSecret, repos.shown]));
    expect(lists['/repos/search']).toEqual(expect.arrayContaining([repos.mine, repos.orgSecret]));
    expect(lists['/users/{u}/repos']).toContain(repos.mine);
    expect(lists['/orgs/{org}/repos']).toContain(repos.orgSecret);
    expect(lists['/repos/search']).not.toContain(repos.bobSecret);

    expect((await api.get(`/repos/${alice.username}/${repos.mine}`, { token: aliceToken })).status).toBe(200);
    const missing = await api.get(`/repos/${alice.username}/nope`, { token: aliceToken });
    expectApiError(missing, 404);
    expect(missing.body.message).not.toMatch(/two-factor/);
    // Signed in on the web (password, then the recovery code): her private repository's pages open.
    const cookie = await webSessionCookie(suite, alice, aliceRecovery);
    expect((await fetch(`${suite.baseUrl}/${alice.username}/${repos.mine}/issues`, { headers: { cookie } })).status).toBe(200);
    const page = await fetch(`${suite.baseUrl}/${alice.username}/${repos.mine}/pulls/1`, { headers: { cookie } });
    expect(page.status).toBe(404);
    expect(await page.text()).not.toMatch(/two-factor/);

    for (const r of [await cloneHttp(alice, aliceToken, alice.username, repos.mine), await cloneSsh(aliceKey, org, repos.orgSecret)]) {
      expect(r.code, redact(r.stderr)).toBe(0);
    }
    const hook = await api.post(`/orgs/${org}/hooks`, { token: aliceToken, body: inactiveHook });
    expect(hook.status, hook.text).toBe(201);

    // The subscriptions, the notification thread and the organization's packages open too.
    expect(names(await api.get('/user/subscriptions', { token: aliceToken }))).toEqual(expect.arrayContaining([repos.mine, repos.orgSecret]));
    expect((await api.get('/notifications?all=true', { token: aliceToken })).text).toContain(SECRET_TITLE);
    expect((await api.get(`/notifications/threads/${secretThreadId}`, { token: aliceToken })).status).toBe(200);
    const read = await curl(['-u', `${alice.username}:${aliceToken}`, genericFileUrl(suite, privateOrg, 'secret', '1.0.0', 'secret.txt')]);
    expect(read.status).toBe(200);
    expect(read.body.toString()).toBe('secret bytes');
    expect((await api.get(`/packages/${privateOrg}`, { token: aliceToken })).status).toBe(200);
    const catalog = await fetch(`${suite.baseUrl}/v2/_catalog`, { headers: { authorization: basicAuth(alice.username, aliceToken) } });
    if (withSkopeo) expect(((await catalog.json()) as { repositories: string[] }).repositories).toContain(`${privateOrg}/secret`);
  });

  it('lets an administrator who enrolled use admin routes and Sudo', async () => {
    await enrol(lazyAdmin);
    expect((await api.get('/admin/users', { token: lazyToken })).status).toBe(200);
    const sudo = await api.get(`/repos/${bob.username}/${repos.bobSecret}/contents/README.md`, {
      token: lazyToken,
      headers: { sudo: bob.username },
    });
    expect(sudo.status, sudo.text).toBe(200);
    expect(sudo.body.path).toBe('README.md');
  });

  it('is removed with the password and a code, and the user must enrol again', async () => {
    expectApiError(await api.delete('/user/2fa', { token: aliceToken }), 401);
    // The next step's code (accepted within the ±1 window): a code is never presented twice in one step.
    const code = totpCode(aliceSecret, Math.max(totpStep(), confirmedStep + 1));
    const removed = await api.delete('/user/2fa', { basic: alice, headers: { 'x-gitea-otp': code } });
    expect(removed.status, removed.text).toBe(204);
    expect((await api.get('/user', { basic: alice })).status).toBe(200);
    expectApiError(await api.get(`/repos/${alice.username}/${repos.mine}`, { token: aliceToken }), 404, ENROL_HINT);
    expect(names(await api.get('/user/repos', { token: aliceToken }))).not.toContain(repos.mine);
  });
});
