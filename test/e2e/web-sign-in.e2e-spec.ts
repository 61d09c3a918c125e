/**
 * Signing in to the web UI (issue 13): the real form in Chromium against the whole suite — password only; password
 * then TOTP code (wrong code first); the recovery code (once); the API's sign-in throttle answering the 429 page with
 * Retry-After; sign-out as a CSRF-protected POST; a new session id at sign-in; no Basic challenge anywhere.
 * Codes come from the independent RFC 6238 generator in test/support/totp.ts. Every page visited is checked by axe
 * and screenshotted (test/artifacts/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_SUITE_APPS } from '../support/git.js';
import { createUser, enrolTwoFactor, http, uniqueName, type HttpClient } from '../support/session.js';
import { basicAuth, startTestSuite, type Account, type TestSuite } from '../support/suite.js';
import { totpCode } from '../support/totp.js';
import {
  chromiumAvailable, expectAccessible, launchBrowser, newPage, screenshot, signIn, type Browser, type Page,
} from '../support/browser.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const SESSION_COOKIE = 'cairn_session';

describe.skipIf(!chromiumAvailable())('web sign-in', () => {
  let suite: TestSuite;
  let api: HttpClient;
  let browser: Browser;
  let admin: Account;

  beforeAll(async () => {
    suite = await startTestSuite({
      apps: REPO_SUITE_APPS,
      env: {
        ...FAST_PASSWORD_HASH,
        CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
        CAIRN__SECURITY__LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
        CAIRN__SECURITY__LOGIN_FAILURE_WINDOW: '10m',
      },
    });
    api = http(suite);
    admin = await suite.createAdmin();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
  });

  /** Runs `fn` with a fresh browser context (no cookies), closed afterwards. */
  async function withPage(fn: (page: Page, cookie: () => Promise<string | undefined>) => Promise<void>): Promise<void> {
    const { context, page } = await newPage(browser, suite.baseUrl);
    const cookie = async () => (await context.cookies()).find((c) => c.name === SESSION_COOKIE)?.value;
    try {
      await fn(page, cookie);
    } finally {
      await context.close();
    }
  }

  const userMenu = (page: Page) => page.locator('details.user-menu summary');

  it('signs in with username and password, renews the session id, signs out with a POST', async () => {
    const alice = await createUser(suite, admin, uniqueName('alice'));
    await withPage(async (page, cookie) => {
      await page.goto('/user/login');
      await expectAccessible(page);
      await screenshot(page, 'web-sign-in-form');
      const before = await cookie();
      expect(before, 'the sign-in form starts a session (its CSRF token)').toBeTruthy();

      await signIn(page, alice);
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await userMenu(page).innerText()).toContain(alice.username);
      const after = await cookie();
      expect(after).toBeTruthy();
      expect(after, 'a new session id at sign-in').not.toBe(before);
      await screenshot(page, 'web-sign-in-signed-in');
      await expectAccessible(page);

      // The pre-sign-in id is worthless now; the signed-in one is the user's.
      const asOld = await fetch(`${suite.baseUrl}/`, { headers: { cookie: `${SESSION_COOKIE}=${before}` } });
      expect(await asOld.text()).not.toContain(alice.username);
      const asNew = await fetch(`${suite.baseUrl}/`, { headers: { cookie: `${SESSION_COOKIE}=${after}` } });
      expect(await asNew.text()).toContain(alice.username);

      // Sign-out is a form POST with the CSRF token; without the token it is refused.
      const forged = await fetch(`${suite.baseUrl}/user/logout`, {
        method: 'POST',
        headers: { cookie: `${SESSION_COOKIE}=${after}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      expect(forged.status).toBe(403);
      expect(await forged.text()).toContain('CSRF');

      await userMenu(page).click();
      await Promise.all([page.waitForURL(`${suite.baseUrl}/`), page.getByRole('button', { name: 'Sign out' }).click()]);
      expect(await page.getByRole('link', { name: 'Sign in' }).first().isVisible()).toBe(true);
      const gone = await fetch(`${suite.baseUrl}/`, { headers: { cookie: `${SESSION_COOKIE}=${after}` } });
      expect(await gone.text()).not.toContain(alice.username);
    });
  });

  it('signs in with the email address too, and says so when the password is wrong (no Basic challenge)', async () => {
    const bob = await createUser(suite, admin, uniqueName('bob'));
    await withPage(async (page) => {
      await page.goto('/user/login');
      await page.getByLabel('Username or email').fill(bob.username);
      await page.getByLabel('Password', { exact: true }).fill(`${bob.password}-wrong`);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/user/login') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(response.status()).toBe(401);
      expect(response.headers()['www-authenticate']).toBeUndefined();
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('invalid username or password');
      expect(await page.getByLabel('Username or email').inputValue()).toBe(bob.username);
      await screenshot(page, 'web-sign-in-wrong-password');
      await expectAccessible(page);

      await signIn(page, { username: `${bob.username}@example.com`, password: bob.password });
      expect(await userMenu(page).innerText()).toContain(bob.username);
    });
  });

  it('sends a user who must change their password to /user/change_password until they have chosen a new one', async () => {
    const carol = await createUser(suite, admin, uniqueName('carol'), { must_change_password: true });
    const apiRefusal = await api.get('/user', { basic: carol });
    expect(apiRefusal.status).toBe(403);
    expect(apiRefusal.text).toContain('user/change_password');
    await withPage(async (page) => {
      await signIn(page, carol);
      await page.waitForURL('**/user/change_password');
      await expectAccessible(page);
      await screenshot(page, 'web-change-password');
      // Every other page leads back here.
      await page.goto('/explore/repos');
      expect(new URL(page.url()).pathname).toBe('/user/change_password');

      const submit = async (password: string, retype: string) => {
        await page.getByLabel('New password', { exact: true }).fill(password);
        await page.getByLabel('Confirm the new password').fill(retype);
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/user/change_password') && r.request().method() === 'POST'),
          page.getByRole('button', { name: 'Change password' }).click(),
        ]);
        await page.waitForLoadState('load');
        return response.status();
      };
      expect(await submit('Pw-carol-new-1', 'Pw-carol-new-2')).toBe(422);
      expect(await page.getByRole('alert').innerText()).toContain('do not match');
      expect(await submit(carol.password, carol.password)).toBe(422);
      expect(await page.getByRole('alert').innerText()).toContain('must differ');
      expect(await submit('Pw-carol-new-1', 'Pw-carol-new-1')).toBe(303);
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.getByRole('status').first().innerText()).toContain('Your password has been changed');
      await page.goto('/explore/repos');
      expect(new URL(page.url()).pathname).toBe('/explore/repos');
    });
    expect((await api.get('/user', { basic: carol })).status).toBe(401);
    expect((await api.get('/user', { basic: basicAuth(carol.username, 'Pw-carol-new-1') })).status).toBe(200);
  });

  it('asks enrolled users for their TOTP code, refuses a wrong one, and returns to the page asked for', async () => {
    const carol = await createUser(suite, admin, uniqueName('carol'));
    const { secret, step } = await enrolTwoFactor(suite, carol);
    await withPage(async (page) => {
      await signIn(page, carol, { redirectTo: '/explore/repos' });
      expect(new URL(page.url()).pathname).toBe('/user/two_factor');
      await screenshot(page, 'web-sign-in-two-factor');
      await expectAccessible(page);

      // The code used to confirm enrolment is spent: it is the "wrong code" here, as is any other.
      await page.getByLabel('Authentication code', { exact: true }).fill(totpCode(secret, step));
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/invalid \(or already used\) two-factor authentication code/);
      expect(await page.locator('details.user-menu').count()).toBe(0);
      await screenshot(page, 'web-sign-in-two-factor-wrong');
      await expectAccessible(page);

      // A fresh code (the next step: the enrolment's step is spent) completes the sign-in.
      await page.getByLabel('Authentication code', { exact: true }).fill(totpCode(secret, step + 1));
      await Promise.all([page.waitForURL(/\/explore\/repos$/), page.getByRole('button', { name: 'Verify' }).click()]);
      expect(await userMenu(page).innerText()).toContain(carol.username);
    });
  });

  it('accepts the recovery code once instead of a TOTP code', async () => {
    const dave = await createUser(suite, admin, uniqueName('dave'));
    const { recovery } = await enrolTwoFactor(suite, dave);
    await withPage(async (page) => {
      await signIn(page, dave);
      await page.getByRole('link', { name: /use your recovery code/i }).click();
      expect(new URL(page.url()).pathname).toBe('/user/two_factor/scratch');
      await expectAccessible(page);
      await page.getByLabel('Recovery code', { exact: true }).fill(recovery);
      await Promise.all([page.waitForURL(/\/user\/settings\/security$/), page.getByRole('button', { name: 'Verify' }).click()]);
      expect(await userMenu(page).innerText()).toContain(dave.username);
      expect(await page.getByRole('status').innerText()).toMatch(/used your recovery code/);
      await screenshot(page, 'web-sign-in-recovery-used');
    });
    await withPage(async (page) => {
      await signIn(page, dave);
      await page.goto('/user/two_factor/scratch');
      await page.getByLabel('Recovery code', { exact: true }).fill(recovery);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/invalid \(or already used\) recovery code/);
      expect(await page.locator('details.user-menu').count()).toBe(0);
    });
  });

  it('throttles failed sign-ins like the API: the 429 page with Retry-After', async () => {
    const erin = await createUser(suite, admin, uniqueName('erin'));
    await withPage(async (page) => {
      for (let i = 0; i < 3; i++) {
        await signIn(page, { username: erin.username, password: 'not-the-password' });
        await expect.poll(() => page.getByRole('alert').innerText()).toContain('invalid username or password');
      }
      await page.goto('/user/login');
      await page.getByLabel('Username or email').fill(erin.username);
      await page.getByLabel('Password', { exact: true }).fill(erin.password);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/user/login') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(response.status()).toBe(429);
      expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      await expect.poll(() => page.locator('h1').innerText()).toBe('Too many requests');
      expect(await page.locator('main').innerText()).toMatch(/too many failed sign-in attempts for this account/);
      await screenshot(page, 'web-sign-in-throttled');
      await expectAccessible(page);
    });
    // The same limiter as the API's: Basic authentication is refused as well now.
    expect((await api.get('/user', { basic: erin })).status).toBe(429);
  });

  it('answers unknown pages with the 404 page in the layout', async () => {
    await withPage(async (page) => {
      const response = await page.goto('/no/such/page/here');
      expect(response?.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toBe('Page not found');
      await screenshot(page, 'web-404');
      await expectAccessible(page);
    });
    // The API and registries keep their own not-found answers.
    const apiMiss = await fetch(`${suite.baseUrl}/api/v1/no-such-route`);
    expect(apiMiss.status).toBe(404);
    expect(apiMiss.headers.get('content-type')).toContain('application/json');
  });
});
