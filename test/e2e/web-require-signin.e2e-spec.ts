/**
 * Site policies in the web UI (issue 13), each with a suite started under the setting:
 * - `[service] REQUIRE_SIGNIN_VIEW = true`: anonymous web visitors are sent (303) to `/user/login` and come back after
 *   signing in; the API answers 401; anonymous git-over-HTTP reads are refused.
 * - `REQUIRE_SIGNIN_VIEW = expensive`: anonymous visitors keep the site and the repository home, but code, history,
 *   issues and pulls pages send them to sign in (Gitea's list); the API is not affected (as in Gitea).
 * - `[security] TWO_FACTOR_AUTH = enforced`: every page shows a signed-in user without two-factor the alert linking to
 *   enrolment; enrolled users do not see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_SUITE_APPS } from '../support/git.js';
import { createUser, enrolTwoFactor, http, uniqueName } from '../support/session.js';
import { sharedTestSuite, startTestSuite, type Account, type TestSuite } from '../support/suite.js';
import { totpCode } from '../support/totp.js';
import {
  chromiumAvailable, expectAccessible, launchBrowser, newPage, screenshot, signIn, type Browser,
} from '../support/browser.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

interface Setup {
  suite: TestSuite;
  browser: Browser;
  admin: Account;
  /** A user who never enrols in two-factor. */
  plain: Account;
  /** A public repository of the admin's, `owner/name`. */
  repo: string;
  /** The admin's TOTP secret and the step its enrolment used, when enrolled. */
  twoFactor?: { secret: string; step: number };
}

/**
 * A suite under `env`, an admin owning a public repository and a plain user, and a browser; with `enrolAdmin` the
 * admin then enrols in two-factor (after the setup calls, which Basic authentication alone could not make later).
 */
async function setUp(env: Record<string, string>, enrolAdmin = false): Promise<Setup> {
  // TWO_FACTOR_AUTH = enforced: the suite shared with the other files under it (two-factor-enforced, web-settings);
  // the REQUIRE_SIGNIN_VIEW settings are this file's alone.
  const suite = env.CAIRN__SECURITY__TWO_FACTOR_AUTH
    ? await sharedTestSuite({ env })
    : await startTestSuite({ apps: REPO_SUITE_APPS, env: { ...FAST_PASSWORD_HASH, ...env } });
  const admin = await suite.createAdmin();
  const api = http(suite);
  // Under TWO_FACTOR_AUTH = enforced the admin API refuses an admin without two-factor: that account comes from the CLI.
  const plain = env.CAIRN__SECURITY__TWO_FACTOR_AUTH ? await suite.createAdmin() : await createUser(suite, admin, uniqueName('plain'));
  const name = uniqueName('open');
  const created = await api.post('/user/repos', { basic: admin, body: { name, private: false, auto_init: true } });
  expect(created.status, created.text).toBe(201);
  let twoFactor: Setup['twoFactor'];
  if (enrolAdmin) twoFactor = await enrolTwoFactor(suite, admin);
  return { suite, admin, plain, repo: `${admin.username}/${name}`, twoFactor, browser: await launchBrowser() };
}

async function tearDown(setup: Setup | undefined): Promise<void> {
  await setup?.browser.close();
  await setup?.suite.stop();
}

/** An anonymous GET without following redirects. */
const anonymous = (setup: Setup, path: string) => fetch(`${setup.suite.baseUrl}${path}`, { redirect: 'manual' });

describe.skipIf(!chromiumAvailable())('REQUIRE_SIGNIN_VIEW = true', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp({ CAIRN__SERVICE__REQUIRE_SIGNIN_VIEW: 'true' });
  });
  afterAll(() => tearDown(setup));

  it('sends anonymous visitors of any page to sign in, and back afterwards', async () => {
    for (const path of ['/', `/${setup.repo}`, '/explore/repos']) {
      const res = await anonymous(setup, path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe(`/user/login?redirect_to=${encodeURIComponent(path)}`);
    }
    // What the sign-in page needs stays reachable.
    expect((await anonymous(setup, '/user/login')).status).toBe(200);
    expect((await anonymous(setup, '/assets/cairn.css')).status).toBe(200);

    const { context, page } = await newPage(setup.browser, setup.suite.baseUrl);
    try {
      await page.goto('/');
      expect(new URL(page.url()).pathname).toBe('/user/login');
      await screenshot(page, 'web-require-signin-true-login');
      await expectAccessible(page);
      await page.getByLabel('Username or email').fill(setup.admin.username);
      await page.getByLabel('Password', { exact: true }).fill(setup.admin.password);
      await Promise.all([page.waitForURL(`${setup.suite.baseUrl}/`), page.getByRole('button', { name: 'Sign in' }).click()]);
      expect(await page.locator('details.user-menu summary').innerText()).toContain(setup.admin.username);
      expect((await page.goto('/'))?.status()).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('answers the anonymous API with 401 and refuses anonymous git-over-HTTP reads', async () => {
    expect((await anonymous(setup, `/api/v1/repos/${setup.repo}`)).status).toBe(401);
    expect((await anonymous(setup, '/api/v1/version')).status).toBe(200);
    const refs = await anonymous(setup, `/${setup.repo}.git/info/refs?service=git-upload-pack`);
    expect(refs.status).toBe(401);
    const signedIn = await fetch(`${setup.suite.baseUrl}/${setup.repo}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: setup.admin.basic },
    });
    expect(signedIn.status).toBe(200);
  });
});

describe.skipIf(!chromiumAvailable())('REQUIRE_SIGNIN_VIEW = expensive', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp({ CAIRN__SERVICE__REQUIRE_SIGNIN_VIEW: 'expensive' });
  });
  afterAll(() => tearDown(setup));

  it('sends anonymous visitors to sign in from code, history, issues and pulls pages only', async () => {
    for (const tail of ['src/branch/main', 'raw/branch/main/README.md', 'commits/branch/main', 'blame/branch/main/README.md',
      'archive/main.zip', 'issues', 'pulls', 'pulls/1']) {
      const path = `/${setup.repo}/${tail}`;
      const res = await anonymous(setup, path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe(`/user/login?redirect_to=${encodeURIComponent(path)}`);
    }
    // The decoded path decides: a percent-encoded spelling of an expensive page is routed to it, so it redirects too.
    for (const tail of ['%72aw/branch/main/README.md', '%73rc/branch/main', '%63ommits/branch/main', '%69ssues', '%70ulls']) {
      const path = `/${setup.repo}/${tail}`;
      const res = await anonymous(setup, path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe(`/user/login?redirect_to=${encodeURIComponent(path)}`);
    }
    // The site and the repository home are not expensive: no redirect.
    expect((await anonymous(setup, '/')).status).toBe(200);
    expect((await anonymous(setup, `/${setup.repo}`)).status).not.toBe(303);
    // The API is not affected (as in Gitea), nor is git.
    expect((await anonymous(setup, `/api/v1/repos/${setup.repo}`)).status).toBe(200);
    expect((await anonymous(setup, `/${setup.repo}.git/info/refs?service=git-upload-pack`)).status).toBe(200);

    const { context, page } = await newPage(setup.browser, setup.suite.baseUrl);
    try {
      await page.goto(`/${setup.repo}/commits/branch/main`);
      expect(new URL(page.url()).pathname).toBe('/user/login');
      await screenshot(page, 'web-require-signin-expensive-login');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('shows an anonymous visitor the images of the README on the open repository home', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const api = http(setup.suite);
    const readme = Buffer.from('# Open\n\n![logo](docs/logo.png)\n').toString('base64');
    const current = await api.get(`/repos/${setup.repo}/contents/README.md`, { basic: setup.admin });
    const changed = await api.post(`/repos/${setup.repo}/contents`, {
      basic: setup.admin,
      body: {
        message: 'a README with an image',
        files: [
          { operation: 'create', path: 'docs/logo.png', content: png },
          { operation: 'update', path: 'README.md', content: readme, sha: current.body.sha },
        ],
      },
    });
    expect(changed.status, changed.text).toBe(201);
    const raw = await anonymous(setup, `/${setup.repo}/raw/branch/main/docs/logo.png`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('image/png');
    // Other raw files stay behind sign-in.
    expect((await anonymous(setup, `/${setup.repo}/raw/branch/main/README.md`)).status).toBe(303);

    const { context, page } = await newPage(setup.browser, setup.suite.baseUrl);
    try {
      await page.goto(`/${setup.repo}`);
      const logo = page.locator('.markdown img');
      await expect.poll(() => logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!chromiumAvailable())('TWO_FACTOR_AUTH = enforced', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp({ CAIRN__SECURITY__TWO_FACTOR_AUTH: 'enforced' }, true);
  });
  afterAll(() => tearDown(setup));

  it('shows a user without two-factor the enrolment alert on every page, and a 404 with it on repository pages', async () => {
    const { context, page } = await newPage(setup.browser, setup.suite.baseUrl);
    try {
      await signIn(page, setup.plain);
      const alert = page.getByRole('alert');
      expect(await alert.innerText()).toMatch(/requires two-factor authentication/);
      expect(await alert.getByRole('link').getAttribute('href')).toBe('/user/settings/security/two_factor/enroll');
      await screenshot(page, 'web-two-factor-enforced-alert');
      await expectAccessible(page);

      const response = await page.goto(`/${setup.repo}`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole('alert').innerText()).toMatch(/requires two-factor authentication/);
      await screenshot(page, 'web-two-factor-enforced-repo-404');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('shows enrolled users no alert', async () => {
    const { context, page } = await newPage(setup.browser, setup.suite.baseUrl);
    try {
      // The enrolment's code is spent: the next step's code (accepted within one step of now).
      const { secret, step } = setup.twoFactor!;
      await signIn(page, setup.admin, { otp: totpCode(secret, step + 1) });
      expect(await page.locator('details.user-menu summary').innerText()).toContain(setup.admin.username);
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
