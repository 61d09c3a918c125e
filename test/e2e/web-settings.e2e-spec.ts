/**
 * The settings and site-administration pages (issue 13, web-settings) in real Chromium against the real suite: an
 * access token is shown once and works against the API; an SSH key is added and verified with a real `ssh-keygen`
 * signature; two-factor authentication is enrolled (codes computed here from the secret the page shows), confirmed
 * and disabled with codes; an administrator adds a system webhook and sees a real delivery to a real receiver, and
 * redelivers it. Every page visited is checked with axe, every test saves a screenshot, and no secret shown on a page
 * appears in any app's log.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable, submitByButton as submit, expectAccessible, launchBrowser, newPage, screenshot, signIn, type Browser, type Page,
} from '../support/browser.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, startTestSuite, type TestSuite } from '../support/suite.js';
import { totpCode, totpStep, wrongTotpCode } from '../support/totp.js';
import { Gpg } from '../support/signing-tools.js';
import { workspace } from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FAST_PASSWORD_HASH, sshKeyFactory } from './identity-helpers.js';

const APPS = ['identity-service', 'repo-service', 'hooks-service', 'runners-service', 'gateway'];


describe.skipIf(!chromiumAvailable())('web settings and site administration', () => {
  let suite: TestSuite;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let api: HttpClient;
  let admin: Account;
  const keys = sshKeyFactory();
  const ws = workspace('cairn-e2e-web-settings-');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    suite = await startTestSuite({
      apps: APPS,
      env: { ...FAST_PASSWORD_HASH, CAIRN__WEBHOOK__ALLOWED_HOST_LIST: 'loopback' },
    });
    api = http(suite);
    admin = await suite.createAdmin();
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
    await receiver?.close();
    keys.cleanup();
    ws.cleanup();
  });

  /** A signed-in page for a new user (or the given account); the context is closed by `run`'s caller. */
  async function withSignedIn(account: Account, run: (page: Page) => Promise<void>): Promise<void> {
    const { context, page } = await newPage(browser, suite.baseUrl);
    // Delete buttons ask first (progressive enhancement): accept as a user would.
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      await signIn(page, account);
      await run(page);
    } finally {
      await context.close();
    }
  }

  /** Every app's recent output, to show that a secret rendered on a page was never logged. */
  function allLogs(): string {
    return APPS.map((app) => suite.lastLines(app, 2000).join('\n')).join('\n');
  }

  it('creates an access token with scopes, shows it once, and deletes it', async () => {
    const alice = await createUser(suite, admin, uniqueName('alice'));
    await withSignedIn(alice, async (page) => {
      await page.goto('/user/settings/applications');
      await expectAccessible(page);
      expect(await page.getByText('You have no access tokens.').isVisible()).toBe(true);

      await page.getByLabel('Token name').fill('ci-bot');
      await page.getByLabel('repository', { exact: true }).selectOption('read');
      await page.getByLabel('user', { exact: true }).selectOption('write');
      expect(await submit(page, 'Generate token')).toBe(200);
      const token = await page.getByRole('textbox', { name: 'Token', exact: true }).inputValue();
      expect(token).toMatch(/^cairn_\w{20,}$/);
      await screenshot(page, 'web-settings-token-created');
      await expectAccessible(page);

      // The token works against the API with exactly the scopes chosen.
      const me = await api.get('/user', { token });
      expect(me.status).toBe(200);
      expect(me.body.login).toBe(alice.username);
      const listed = await api.get(`/users/${alice.username}/tokens`, { basic: alice });
      expect(listed.body).toEqual([expect.objectContaining({ name: 'ci-bot', scopes: ['read:repository', 'write:user'] })]);
      expect((await api.post('/user/repos', { token, body: { name: uniqueName('r') } })).status).toBe(403);

      // Shown once: the list shows only its last eight characters.
      await page.goto('/user/settings/applications');
      const html = await page.content();
      expect(html).not.toContain(token);
      expect(html).toContain(token.slice(-8));
      expect(await page.getByRole('cell', { name: 'ci-bot', exact: true }).isVisible()).toBe(true);
      expect(allLogs()).not.toContain(token);

      // Refusals come back on the form with identity-service's message: no scope, then a name in use.
      await page.getByLabel('Token name').fill('ci-bot');
      expect(await submit(page, 'Generate token')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toContain('access token must have a scope');
      expect(await page.getByLabel('Token name').inputValue()).toBe('ci-bot');
      await page.getByLabel('issue', { exact: true }).selectOption('read');
      expect(await submit(page, 'Generate token')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toContain('access token name has been used already');
      await expectAccessible(page);

      await submit(page, 'Delete token ci-bot');
      expect(await page.getByText('The access token has been deleted').isVisible()).toBe(true);
      expect((await api.get('/user', { token })).status).toBe(401);
    });
  });

  it('edits the profile: saved values shown again and served by the API; a refused website comes back on the form', async () => {
    const frank = await createUser(suite, admin, uniqueName('frank'));
    await withSignedIn(frank, async (page) => {
      await page.goto('/user/settings');
      await expectAccessible(page);
      await page.getByLabel('Full name').fill('Frank Profile');
      await page.getByLabel('Website').fill('https://frank.example.com');
      await page.getByLabel('Location').fill('Coimbra');
      await page.getByLabel('Biography').fill('Builds bridges.');
      await page.getByLabel('Hide my e-mail address from other users').check();
      expect(await submit(page, 'Update profile')).toBe(200);
      expect(page.url()).toMatch(/\/user\/settings$/);
      expect(await page.getByText('Your profile has been updated.').isVisible()).toBe(true);
      expect(await page.getByLabel('Full name').inputValue()).toBe('Frank Profile');
      expect(await page.getByLabel('Location').inputValue()).toBe('Coimbra');
      expect(await page.getByLabel('Biography').inputValue()).toBe('Builds bridges.');
      expect(await page.getByLabel('Hide my e-mail address from other users').isChecked()).toBe(true);
      await expectAccessible(page);
      await screenshot(page, 'web-settings-profile-saved');

      const settings = await api.get('/user/settings', { basic: frank });
      expect(settings.body).toMatchObject({
        full_name: 'Frank Profile', website: 'https://frank.example.com', location: 'Coimbra',
        description: 'Builds bridges.', hide_email: true,
      });

      // A URL the browser accepts but Gitea's rule refuses (not http/https): the message, the typed values kept.
      await page.getByLabel('Website').fill('ftp://frank.example.com');
      await page.getByLabel('Location').fill('Porto');
      expect(await submit(page, 'Update profile')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toContain('website must be an http(s) URL');
      expect(await page.getByLabel('Location').inputValue()).toBe('Porto');
      await expectAccessible(page);
      expect((await api.get('/user/settings', { basic: frank })).body).toMatchObject({ location: 'Coimbra' });
    });
  });

  it('adds an SSH key, refuses a broken one with a message, and verifies the key with a real signature', async () => {
    const bob = await createUser(suite, admin, uniqueName('bob'));
    const key = keys.generate('ed25519');
    await withSignedIn(bob, async (page) => {
      await page.goto('/user/settings/keys');
      await expectAccessible(page);

      await page.getByLabel('Title (SSH keys)').fill('laptop');
      await page.getByLabel('Content').fill('ssh-ed25519 not-a-key');
      expect(await submit(page, 'Add key')).toBe(422);
      expect(await page.getByRole('alert').isVisible()).toBe(true);

      await page.getByLabel('Title (SSH keys)').fill('laptop');
      await page.getByLabel('Content').fill(key.publicKey);
      expect(await submit(page, 'Add key')).toBe(200);
      expect(await page.getByText('The SSH key has been added.').isVisible()).toBe(true);
      expect(await page.getByRole('cell', { name: key.fingerprint }).isVisible()).toBe(true);
      const row = page.getByRole('row', { name: /laptop/ });
      expect(await row.getByRole('cell', { name: 'not verified' }).isVisible()).toBe(true);
      const listed = await api.get('/user/keys', { basic: bob });
      expect(listed.body).toEqual([expect.objectContaining({ title: 'laptop', fingerprint: key.fingerprint })]);

      // Verification: sign the page's token with `ssh-keygen -Y sign -n gitea`, as Gitea's page asks.
      const verificationToken = (await page.locator('#verification-token').textContent())!.trim();
      const signature = execFileSync('ssh-keygen', ['-Y', 'sign', '-n', 'gitea', '-f', key.privateKeyPath], {
        input: verificationToken, encoding: 'utf8',
      });
      await page.getByLabel('Key', { exact: true }).selectOption({ label: `SSH: laptop (${key.fingerprint})` });
      await page.getByLabel('Signature', { exact: true }).fill(signature);
      expect(await submit(page, 'Verify')).toBe(200);
      expect(await page.getByText('The key has been verified.').isVisible()).toBe(true);
      expect(await page.getByRole('row', { name: /laptop/ }).getByRole('cell', { name: 'verified', exact: true }).isVisible()).toBe(true);
      await screenshot(page, 'web-settings-ssh-key');
      await expectAccessible(page);

      await submit(page, 'Delete SSH key laptop');
      expect(await page.getByText('You have no SSH keys.').isVisible()).toBe(true);
    });
  });

  it('adds GPG keys: one with the user\'s e-mail at once, one without only with a signature over the page\'s token', async () => {
    const erin = await createUser(suite, admin, uniqueName('erin'));
    const gpg = new Gpg(ws.dir('gnupg'));
    const own = await gpg.generate(`Erin <${erin.username}@example.com>`, 'ed25519');
    const robot = await gpg.generate(`Robot <${uniqueName('robot')}@elsewhere.test>`, 'rsa');
    await withSignedIn(erin, async (page) => {
      await page.goto('/user/settings/keys');
      await page.getByLabel('Key type').selectOption('gpg');
      await page.getByLabel('Content').fill(own.armoredPublic);
      expect(await submit(page, 'Add key')).toBe(200);
      expect(await page.getByText('The GPG key has been added.').isVisible()).toBe(true);
      expect(await page.getByRole('row', { name: new RegExp(own.keyId) }).getByRole('cell', { name: `${erin.username}@example.com (verified)` }).isVisible()).toBe(true);

      // Without one of erin's e-mails: refused on the form, naming the token to sign (the page shows it too).
      await page.getByLabel('Key type').selectOption('gpg');
      await page.getByLabel('Content').fill(robot.armoredPublic);
      expect(await submit(page, 'Add key')).toBe(422);
      const refusal = (await page.getByRole('alert').textContent()) ?? '';
      const verificationToken = /valid signature for the token: ([0-9a-f]{64})/.exec(refusal)?.[1];
      expect(verificationToken, refusal).toBeDefined();
      expect((await page.locator('#verification-token').textContent())!.trim()).toMatch(/^[0-9a-f]{64}$/);
      await expectAccessible(page);

      await page.getByLabel('Key type').selectOption('gpg');
      await page.getByLabel('Content').fill(robot.armoredPublic);
      await page.getByLabel(/^Signature over the verification token/).fill(await gpg.detachSign(robot.keyId, verificationToken!));
      expect(await submit(page, 'Add key')).toBe(200);
      expect(await page.getByRole('row', { name: new RegExp(robot.keyId) }).getByRole('cell', { name: 'verified', exact: true }).isVisible()).toBe(true);
      await screenshot(page, 'web-settings-gpg-keys');
      await expectAccessible(page);
      const listed = await api.get('/user/gpg_keys', { basic: erin });
      expect(listed.body.map((k: { key_id: string }) => k.key_id).sort()).toEqual([own.keyId, robot.keyId].sort());
    });
  });

  it('enrols in two-factor authentication with the QR code page, confirms with a code, and disables with a code', async () => {
    const carol = await createUser(suite, admin, uniqueName('carol'));
    await withSignedIn(carol, async (page) => {
      await page.goto('/user/settings/security');
      await expectAccessible(page);
      expect(await submit(page, 'Enrol in two-factor authentication')).toBe(200);
      const secret = await page.getByRole('textbox', { name: 'Secret' }).inputValue();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(true);
      await screenshot(page, 'web-settings-two-factor-enrol');
      await expectAccessible(page);

      // A wrong code is refused; the secret is not shown again (the authenticator has it already).
      await page.getByLabel('Code from your authenticator app').fill(wrongTotpCode(secret));
      expect(await submit(page, 'Confirm')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toContain('invalid two-factor authentication code');
      expect(await page.content()).not.toContain(secret);

      const step = totpStep();
      await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, step));
      expect(await submit(page, 'Confirm')).toBe(200);
      const recovery = await page.getByRole('textbox', { name: 'Recovery code' }).inputValue();
      expect(recovery).toMatch(/^[A-Za-z0-9]{12}$/);
      await screenshot(page, 'web-settings-two-factor-recovery-code');
      await expectAccessible(page);
      // Enrolled for real: a password alone no longer authenticates the API.
      expect((await api.get('/user', { basic: carol })).status).toBe(401);

      await page.goto('/user/settings/security');
      expect(await page.getByText('is enabled').isVisible()).toBe(true);
      await page.getByLabel('Current code from your authenticator app').fill(wrongTotpCode(secret));
      expect(await submit(page, 'Disable two-factor authentication')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toContain('invalid two-factor authentication code');
      // The confirming code is used up: the next step's code (within the accepted window) disables it.
      await page.getByLabel('Current code from your authenticator app').fill(totpCode(secret, step + 1));
      expect(await submit(page, 'Disable two-factor authentication')).toBe(200);
      expect(await page.getByText('Two-factor authentication has been disabled.').isVisible()).toBe(true);
      expect(await page.getByText('is not enabled').isVisible()).toBe(true);
      expect((await api.get('/user', { basic: carol })).status).toBe(200);
      await expectAccessible(page);

      const logs = allLogs();
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(recovery);
    });
  });

  it('lets an administrator add a system webhook, see its deliveries, and redeliver one; others get 403', async () => {
    const dave = await createUser(suite, admin, uniqueName('dave'));
    await withSignedIn(admin, async (page) => {
      await page.goto('/-/admin/hooks');
      await expectAccessible(page);
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Add a system webhook' }).click()]);
      await expectAccessible(page);
      await page.getByLabel('Target URL').fill(`${receiver.url}/system`);
      await page.getByLabel('Custom events').check();
      await page.getByLabel('repository', { exact: true }).check();
      await page.getByLabel('Secret (signs each delivery)').fill('hook-secret-never-shown');
      expect(await page.getByLabel('Active').isChecked()).toBe(true);
      expect(await submit(page, 'Add webhook')).toBe(200);
      expect(await page.getByText('The webhook has been added.').isVisible()).toBe(true);
      expect(page.url()).toMatch(/\/-\/admin\/hooks\/\d+$/);
      expect(await page.content()).not.toContain('hook-secret-never-shown');

      // A system hook sees every repository: a repository created by another user is delivered.
      const repo = uniqueName('repo');
      expect((await api.post('/user/repos', { basic: dave, body: { name: repo } })).status).toBe(201);
      const first = await waitFor(() => receiver.received.find((r) => r.path === '/system'), 'the system hook delivery');
      expect(first.event).toBe('repository');
      expect(first.json.repository.name).toBe(repo);

      const guid = String(first.headers['x-gitea-delivery']);
      await waitFor(async () => {
        await page.reload();
        return (await page.getByRole('link', { name: guid }).count()) > 0 && (await page.getByRole('cell', { name: '200' }).count()) > 0;
      }, 'the delivery listed as delivered');
      await screenshot(page, 'web-admin-system-hook-deliveries');
      await expectAccessible(page);

      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: guid }).click()]);
      expect(await page.getByText(/x-gitea-event: repository/i).isVisible()).toBe(true);
      await expectAccessible(page);
      await submit(page, 'Redeliver');
      expect(await page.getByText('The delivery has been queued again.').isVisible()).toBe(true);
      await waitFor(() => receiver.received.filter((r) => r.path === '/system').length >= 2 || undefined, 'the redelivery');
      const again = receiver.received.filter((r) => r.path === '/system')[1];
      expect(again.headers['x-gitea-delivery']).toBe(guid);

      await page.goto('/-/admin/users');
      expect(await page.getByRole('link', { name: dave.username }).isVisible()).toBe(true);
      await expectAccessible(page);
      await page.goto('/-/admin/runners');
      expect(await submit(page, 'Show the registration token')).toBe(200);
      expect(await page.getByRole('textbox', { name: /Registration token/ }).inputValue()).toMatch(/\S{20,}/);
      await expectAccessible(page);
      expect(allLogs()).not.toContain('hook-secret-never-shown');
    });

    await withSignedIn(dave, async (page) => {
      const response = await page.goto('/-/admin/hooks');
      expect(response?.status()).toBe(403);
      expect(await page.content()).toContain('user should be the site admin');
      await screenshot(page, 'web-admin-forbidden');
      await expectAccessible(page);
    });
  });

  it('fits a phone screen: the settings pages with a token and a key scroll no wider than the screen', async () => {
    const frank = await createUser(suite, admin, uniqueName('frank'));
    const key = keys.generate('ed25519');
    expect((await api.post('/user/keys', { basic: frank, body: { title: 'a rather long key title for a phone', key: key.publicKey } })).status).toBe(201);
    expect((await api.post(`/users/${frank.username}/tokens`, { basic: frank, body: { name: 'phone-token', scopes: ['read:user'] } })).status).toBe(201);
    const { context, page } = await newPage(browser, suite.baseUrl, { phone: true });
    try {
      await signIn(page, frank);
      for (const path of ['/user/settings/applications', '/user/settings/keys', '/user/settings/security']) {
        await page.goto(path);
        const overflow = await page.evaluate(() => {
          const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } })
            .document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        expect(overflow, path).toBeLessThanOrEqual(0);
        await expectAccessible(page);
      }
      await screenshot(page, 'web-settings-phone-security');
    } finally {
      await context.close();
    }
  });

  it('sends visitors who are not signed in to the sign-in page and refuses a form without its CSRF token', async () => {
    const { context, page } = await newPage(browser, suite.baseUrl);
    try {
      await page.goto('/user/settings/applications');
      expect(new URL(page.url()).pathname).toBe('/user/login');
      await screenshot(page, 'web-settings-sign-in-required');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
    const forged = await fetch(`${suite.baseUrl}/user/settings/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
  });
});

describe.skipIf(!chromiumAvailable())('web settings under [security] TWO_FACTOR_AUTH = enforced', () => {
  let suite: TestSuite;
  let browser: Browser;

  beforeAll(async () => {
    // Shared with the other files under TWO_FACTOR_AUTH = enforced (two-factor-enforced, web-require-signin).
    suite = await sharedTestSuite({ env: { CAIRN__SECURITY__TWO_FACTOR_AUTH: 'enforced' } });
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
  });

  it('refuses site administration to an admin without two-factor, who enrols from the alert and is then let in', async () => {
    // The admin API refuses an admin without two-factor here: the account comes from the CLI.
    const admin = await suite.createAdmin();
    const { context, page } = await newPage(browser, suite.baseUrl);
    try {
      await signIn(page, admin);
      const refused = await page.goto('/-/admin/hooks');
      expect(refused?.status()).toBe(403);
      expect(await page.getByText('site administration requires two-factor authentication').isVisible()).toBe(true);
      await expectAccessible(page);

      await Promise.all([page.waitForNavigation(), page.getByRole('alert').getByRole('link').click()]);
      expect(new URL(page.url()).pathname).toBe('/user/settings/security/two_factor/enroll');
      expect(await submit(page, 'Enrol in two-factor authentication')).toBe(200);
      const secret = await page.getByRole('textbox', { name: 'Secret' }).inputValue();
      await page.getByLabel('Code from your authenticator app').fill(totpCode(secret));
      expect(await submit(page, 'Confirm')).toBe(200);
      expect(await page.getByRole('textbox', { name: 'Recovery code' }).isVisible()).toBe(true);
      expect(await page.getByRole('alert').count()).toBe(0);

      expect((await page.goto('/-/admin/hooks'))?.status()).toBe(200);
      expect(await page.getByRole('alert').count()).toBe(0);
      await screenshot(page, 'web-admin-after-enrolment');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});
