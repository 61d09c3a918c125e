/**
 * The "configure" pages (issue 22) in real Chromium against the shared suite, as a person uses them: repository
 * options and the danger zone (rename, archive, delete with the name typed), collaborators (who can then see and push
 * to the private repository over git), branch protection (a push to the protected branch is then refused by git),
 * webhooks (added, test-delivered to a real receiver, edited; a failed delivery shows why first), deploy keys, Actions
 * secrets/variables/runners, organization settings, members and teams, the user's e-mail addresses, and package pages
 * after publishing a generic package over HTTP. Every new page is checked with axe at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable, submitByButton as submit, expectAccessibleAtBothWidths, launchBrowser, newPage, signIn, type Browser, type Page,
} from '../support/browser.js';
import { commitAll, generateSshKey, gitRunner, httpCloneUrl, workspace } from '../support/git.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';


describe.skipIf(!chromiumAvailable())('web: configure repositories, organizations, users and packages', () => {
  let suite: TestSuite;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let api: HttpClient;
  let admin: Account;
  let owner: Account;
  const ws = workspace('cairn-e2e-web-config-');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    suite = await sharedTestSuite();
    api = http(suite);
    admin = await suite.createAdmin();
    owner = await createUser(suite, admin, uniqueName('owner'));
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
    await receiver?.close();
    ws.cleanup();
  });

  async function signedIn(account: Account, run: (page: Page) => Promise<void>): Promise<void> {
    const { context, page } = await newPage(browser, suite.baseUrl);
    page.on('dialog', (dialog) => void dialog.accept()); // delete buttons ask first
    try {
      await signIn(page, account);
      await run(page);
    } finally {
      await context.close();
    }
  }

  async function newRepo(account: Account, options: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName('repo');
    const res = await api.post('/user/repos', { basic: account, body: { name, auto_init: true, ...options } });
    expect(res.status, res.text).toBe(201);
    return name;
  }

  /** Clones over HTTP as `account`, commits a file on `branch` and pushes; resolves with git's exit code and output. */
  async function pushAs(account: Account, repo: string, branch: string, file: string, repoOwner = owner.username) {
    const git = gitRunner(ws.dir('home'));
    const work = ws.dir('work');
    const url = httpCloneUrl(suite.baseUrl, repoOwner, repo, { username: account.username, secret: account.password });
    await git.ok(['clone', '-q', url, work]);
    await git.ok(['checkout', '-q', '-B', branch], { cwd: work });
    await commitAll(git, work, { [file]: `${file}\n` }, `add ${file}`);
    return git.try(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work });
  }

  it('edits options, renames, archives and deletes a repository only with its name typed', async () => {
    const repo = await newRepo(owner);
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/${repo}`);
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Settings' }).click()]);
      await expectAccessibleAtBothWidths(page, 'web-config-repo-options');

      const renamed = `${repo}-new`;
      await page.getByLabel('Repository name').fill(renamed);
      await page.getByLabel('Description').fill('Configured in the browser');
      await page.getByLabel('Website').fill('https://example.com/docs');
      expect(await submit(page, 'Update settings')).toBe(200);
      expect(page.url()).toBe(`${suite.baseUrl}/${owner.username}/${renamed}/settings`);
      expect(await page.getByText('The repository settings have been updated.').isVisible()).toBe(true);
      const after = await api.get(`/repos/${owner.username}/${renamed}`, { basic: owner });
      expect(after.body).toMatchObject({ name: renamed, description: 'Configured in the browser', website: 'https://example.com/docs' });

      await page.getByLabel('Squash').uncheck();
      await page.getByLabel('Default merge style').selectOption('rebase');
      await page.getByLabel('Delete the head branch after merge by default').check();
      expect(await submit(page, 'Update pull request settings')).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${renamed}`, { basic: owner })).body).toMatchObject({
        allow_squash_merge: false, default_merge_style: 'rebase', default_delete_branch_after_merge: true,
      });

      expect(await submit(page, 'Archive repository')).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${renamed}`, { basic: owner })).body.archived).toBe(true);
      expect(await submit(page, 'Unarchive repository')).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${renamed}`, { basic: owner })).body.archived).toBe(false);

      // A wrong name: a 422 with the reason on the form, the repository still there.
      const deleteForm = page.getByRole('form', { name: 'Delete this repository' });
      await deleteForm.getByLabel(/to confirm$/).fill(repo);
      expect(await submit(page, 'Delete repository')).toBe(422);
      expect(await page.getByText(`does not match "${renamed}"`).first().isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page);
      expect((await api.get(`/repos/${owner.username}/${renamed}`, { basic: owner })).status).toBe(200);
      await deleteForm.getByLabel(/to confirm$/).fill(renamed);
      expect(await submit(page, 'Delete repository')).toBe(200);
      expect(page.url()).toBe(`${suite.baseUrl}/${owner.username}`);
      expect((await api.get(`/repos/${owner.username}/${renamed}`, { basic: owner })).status).toBe(404);
    });

    // Not an administrator of the repository: the settings are not there.
    const stranger = await createUser(suite, admin, uniqueName('stranger'));
    const other = await newRepo(owner);
    await signedIn(stranger, async (page) => {
      expect((await page.goto(`/${owner.username}/${other}/settings`))?.status()).toBe(404);
      expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    });
  });

  it('transfers a repository to an organization, with its name typed; an unknown owner is refused on the form', async () => {
    const repo = await newRepo(owner);
    const org = uniqueName('movers');
    expect((await api.post('/orgs', { basic: owner, body: { username: org } })).status).toBe(201);
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/${repo}/settings`);
      const transfer = page.getByRole('form', { name: 'Transfer ownership' });
      await transfer.getByLabel('New owner').fill('nobody-by-this-name');
      await transfer.getByLabel(/to confirm$/).fill(repo);
      expect(await submit(page, 'Transfer repository')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toMatch(/not exist/);
      await transfer.getByLabel('New owner').fill(org);
      await transfer.getByLabel(/to confirm$/).fill(repo);
      expect(await submit(page, 'Transfer repository')).toBe(200);
      expect(page.url()).toBe(`${suite.baseUrl}/${org}/${repo}`);
    });
    expect((await api.get(`/repos/${org}/${repo}`, { basic: owner })).body).toMatchObject({ full_name: `${org}/${repo}` });
    expect((await api.get(`/repos/${owner.username}/${repo}`, { basic: owner })).status).toBe(404);
    // The git data moved with it.
    const readme = await api.get(`/repos/${org}/${repo}/contents/README.md`, { basic: owner });
    expect(readme.status).toBe(200);
  });

  it('adds a collaborator who can then see and push to the private repository; changes and removes them', async () => {
    const repo = await newRepo(owner, { private: true });
    const bob = await createUser(suite, admin, uniqueName('bob'));
    expect((await api.get(`/repos/${owner.username}/${repo}`, { basic: bob })).status).toBe(404);
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/${repo}/settings/collaboration`);
      await page.getByLabel('User name').fill('no-such-user-here');
      expect(await submit(page, 'Add collaborator')).toBe(422);
      expect(await page.getByRole('alert').textContent()).toContain('does not exist');
      await page.getByLabel('User name').fill(bob.username);
      expect(await submit(page, 'Add collaborator')).toBe(200);
      expect(await page.getByRole('link', { name: bob.username }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-collaborators');

      expect((await api.get(`/repos/${owner.username}/${repo}`, { basic: bob })).status).toBe(200);
      expect((await pushAs(bob, repo, 'bob-branch', 'bob.txt')).code).toBe(0);

      await page.getByLabel(`Access of ${bob.username}`, { exact: true }).selectOption('1');
      expect(await submit(page, `Change access of ${bob.username}`)).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${repo}/collaborators/${bob.username}/permission`, { basic: owner })).body.permission).toBe('read');
      expect((await pushAs(bob, repo, 'bob-again', 'again.txt')).code).not.toBe(0);

      expect(await submit(page, `Remove ${bob.username}`)).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${repo}`, { basic: bob })).status).toBe(404);
    });
  });

  it('protects a branch: a push to it is then refused over git; the rule is edited and removed', async () => {
    const repo = await newRepo(owner);
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/${repo}/settings/branches`);
      await expectAccessibleAtBothWidths(page, 'web-config-branches');
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Add rule' }).click()]);
      await page.getByLabel('Branch name or pattern').fill('main');
      await page.getByLabel('Disable push').check();
      await page.getByLabel('Required approvals').fill('2');
      await page.getByLabel('Block merge on rejected reviews').check();
      await page.getByLabel('Protected file patterns (semicolon-separated globs)').fill('*.lock');
      await expectAccessibleAtBothWidths(page, 'web-config-branch-rule');
      expect(await submit(page, 'Save rule')).toBe(200);
      expect(await page.getByRole('link', { name: 'main' }).isVisible()).toBe(true);
      const rule = (await api.get(`/repos/${owner.username}/${repo}/branch_protections/main`, { basic: owner })).body;
      expect(rule).toMatchObject({ enable_push: false, required_approvals: 2, block_on_rejected_reviews: true, protected_file_patterns: '*.lock' });

      const refused = await pushAs(owner, repo, 'main', 'blocked.txt');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/protected/i);

      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'main' }).click()]);
      expect(await page.getByLabel('Required approvals').inputValue()).toBe('2');
      await page.getByLabel('Anyone with write access may push').check();
      expect(await submit(page, 'Save rule')).toBe(200);
      expect((await pushAs(owner, repo, 'main', 'allowed.txt')).code).toBe(0);

      expect(await submit(page, 'Delete rule main')).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${repo}/branch_protections`, { basic: owner })).body).toEqual([]);
    });
  });

  it('adds a webhook, test-delivers it to a real receiver, edits it, and shows why a delivery failed first', async () => {
    const repo = await newRepo(owner);
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/${repo}/settings/hooks`);
      await expectAccessibleAtBothWidths(page, 'web-config-hooks');
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Add webhook' }).click()]);
      await expectAccessibleAtBothWidths(page, 'web-config-hook-new');
      await page.getByLabel('Target URL').fill(`${receiver.url}/${repo}`);
      await page.getByLabel('Secret (signs each delivery)').fill('hook-secret-of-web-config');
      await page.getByLabel('Custom events').check();
      await page.getByLabel('push', { exact: true }).check();
      await page.getByLabel('release', { exact: true }).check();
      expect(await submit(page, 'Add webhook')).toBe(200);
      expect(page.url()).toMatch(new RegExp(`/${repo}/settings/hooks/\\d+$`));
      expect(await page.content()).not.toContain('hook-secret-of-web-config');
      const hookUrl = page.url();

      expect(await submit(page, 'Test delivery')).toBe(200);
      const got = await waitFor(() => receiver.received.find((r) => r.path === `/${repo}`), 'the test delivery');
      expect(got.event).toBe('push');
      expect(got.json.repository.name).toBe(repo);
      expect(got.headers['x-gitea-signature']).toMatch(/^[0-9a-f]{64}$/);
      // The page the test leads to is that delivery: its request as sent.
      expect(await page.getByText(String(got.headers['x-gitea-delivery'])).first().isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-hook-delivery');

      await page.goto(hookUrl);
      expect(await page.getByRole('link', { name: String(got.headers['x-gitea-delivery']) }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-hook-edit');
      await page.getByLabel('Target URL').fill(`${receiver.url}/${repo}-edited`);
      await page.getByLabel('Push events').check();
      expect(await submit(page, 'Update webhook')).toBe(200);
      expect(await page.getByText('The webhook has been updated.').isVisible()).toBe(true);
      const hooks = (await api.get(`/repos/${owner.username}/${repo}/hooks`, { basic: owner })).body;
      expect(hooks).toEqual([expect.objectContaining({ events: ['push'], config: expect.objectContaining({ url: `${receiver.url}/${repo}-edited` }) })]);
      expect(await submit(page, 'Test delivery')).toBe(200);
      await waitFor(() => receiver.received.find((r) => r.path === `/${repo}-edited`), 'the delivery to the edited URL');

      // A target that refuses connections: the delivery page says why before anything else.
      await page.goto(hookUrl);
      await page.getByLabel('Target URL').fill('http://127.0.0.1:1/nobody');
      expect(await submit(page, 'Update webhook')).toBe(200);
      expect(await submit(page, 'Test delivery')).toBe(200);
      const reason = page.locator('#delivery-failure');
      await waitFor(async () => (await reason.count()) > 0 || (await page.reload(), false), 'the failure reason on the delivery page');
      expect(await reason.textContent()).toMatch(/refused|connect/i);
      const box = await reason.boundingBox();
      expect(box!.y).toBeLessThan(800); // in the first screen, not at the bottom of the page

      await page.goto(hookUrl);
      expect(await submit(page, 'Delete webhook')).toBe(200);
      expect((await api.get(`/repos/${owner.username}/${repo}/hooks`, { basic: owner })).body).toEqual([]);
    });
  });

  it('adds a deploy key, Actions secrets (never shown back) and variables, and shows the runner registration token', async () => {
    const repo = await newRepo(owner);
    const key = await generateSshKey(ws.dir('key'), 'deploy@web-config');
    await signedIn(owner, async (page) => {
      const settings = `/${owner.username}/${repo}/settings`;
      await page.goto(`${settings}/keys`);
      await page.getByLabel('Title').fill('ci deploy');
      await page.getByLabel('Content').fill(key.publicKey);
      expect(await submit(page, 'Add key')).toBe(200);
      expect(await page.getByRole('cell', { name: 'ci deploy', exact: true }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-deploy-keys');

      await page.goto(`${settings}/actions/secrets`);
      await page.getByLabel('Name').fill('deploy_token');
      await page.getByLabel('Value').fill('secret-value-never-shown');
      expect(await submit(page, 'Save secret')).toBe(200);
      expect(await page.getByRole('cell', { name: 'DEPLOY_TOKEN', exact: true }).isVisible()).toBe(true);
      expect(await page.content()).not.toContain('secret-value-never-shown');
      await page.getByLabel('Name').fill('bad name!');
      await page.getByLabel('Value').fill('x');
      expect(await submit(page, 'Save secret')).toBe(422);
      await expectAccessibleAtBothWidths(page, 'web-config-secrets');

      await page.goto(`${settings}/actions/variables`);
      await page.getByLabel('Name').fill('region');
      await page.getByLabel('Value').fill('eu-west');
      expect(await submit(page, 'Save variable')).toBe(200);
      expect(await page.getByRole('cell', { name: 'eu-west', exact: true }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-variables');
      const variable = await api.get(`/repos/${owner.username}/${repo}/actions/variables/REGION`, { basic: owner });
      expect(variable.body).toMatchObject({ name: 'REGION', data: 'eu-west' });

      await page.goto(`${settings}/actions/runners`);
      expect(await submit(page, 'Show the registration token')).toBe(200);
      expect(await page.getByRole('textbox', { name: /Registration token/ }).inputValue()).toMatch(/\S{20,}/);
      await expectAccessibleAtBothWidths(page, 'web-config-runners');
    });
  });

  it('manages an organization: settings, members, a new team and its members, and its webhooks page', async () => {
    const org = uniqueName('org');
    expect((await api.post('/orgs', { basic: owner, body: { username: org } })).status).toBe(201);
    const carol = await createUser(suite, admin, uniqueName('carol'));
    await signedIn(owner, async (page) => {
      await page.goto(`/org/${org}/settings`);
      await expectAccessibleAtBothWidths(page, 'web-config-org-settings');
      await page.getByLabel('Full name').fill('Web Config Org');
      await page.getByLabel('Limited: signed-in users').check();
      expect(await submit(page, 'Update settings')).toBe(200);
      expect((await api.get(`/orgs/${org}`, { basic: owner })).body).toMatchObject({ full_name: 'Web Config Org', visibility: 'limited' });

      await page.goto(`/org/${org}/teams`);
      await page.getByLabel('Team name').fill('builders');
      await page.getByLabel('Permission').selectOption('write');
      await expectAccessibleAtBothWidths(page, 'web-config-org-teams');
      expect(await submit(page, 'Create team')).toBe(200);
      expect(page.url()).toBe(`${suite.baseUrl}/org/${org}/teams/builders`);
      await page.getByLabel('User name').fill(carol.username);
      expect(await submit(page, 'Add member')).toBe(200);
      expect(await page.getByRole('link', { name: carol.username }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-org-team');

      // The team gets a private repository of the organization from its collaborators page; carol then sees it.
      const repo = uniqueName('org-repo');
      expect((await api.post(`/orgs/${org}/repos`, { basic: owner, body: { name: repo, private: true } })).status).toBe(201);
      expect((await api.get(`/repos/${org}/${repo}`, { basic: carol })).status).toBe(404);
      await page.goto(`/${org}/${repo}/settings/collaboration`);
      await page.getByLabel('Team', { exact: true }).selectOption('builders');
      expect(await submit(page, 'Add team')).toBe(200);
      expect(await page.getByText('The team builders now has access.').isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-repo-teams');
      expect((await api.get(`/repos/${org}/${repo}`, { basic: carol })).status).toBe(200);
      expect(await submit(page, 'Remove team builders')).toBe(200);
      expect((await api.get(`/repos/${org}/${repo}`, { basic: carol })).status).toBe(404);

      await page.goto(`/org/${org}/members`);
      expect(await page.getByRole('link', { name: carol.username }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-org-members');
      expect(await submit(page, `Make ${carol.username}'s membership public`)).toBe(200);
      expect((await api.get(`/orgs/${org}/public_members/${carol.username}`, { basic: owner })).status).toBe(204);
      expect(await submit(page, `Remove ${carol.username}`)).toBe(200);
      expect((await api.get(`/orgs/${org}/members/${carol.username}`, { basic: owner })).status).toBe(404);

      await page.goto(`/org/${org}/settings/hooks`);
      await expectAccessibleAtBothWidths(page, 'web-config-org-hooks');
      await page.goto(`/org/${org}/settings/actions/secrets`);
      await expectAccessibleAtBothWidths(page);
    });
    await signedIn(carol, async (page) => {
      expect((await page.goto(`/org/${org}/settings`))?.status()).toBe(404);
    });
  });

  it("manages the user's e-mail addresses and webhooks", async () => {
    const dora = await createUser(suite, admin, uniqueName('dora'));
    await signedIn(dora, async (page) => {
      await page.goto('/user/settings/account');
      const extra = `${dora.username}-second@example.com`;
      await page.getByLabel('New e-mail address').fill(extra);
      expect(await submit(page, 'Add e-mail address')).toBe(200);
      expect(await page.getByRole('cell', { name: extra, exact: true }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-user-emails');
      expect((await api.get('/user/emails', { basic: dora })).body.map((e: { email: string }) => e.email)).toContain(extra);
      expect(await submit(page, `Make ${extra} primary`)).toBe(200);
      expect((await api.get('/user/emails', { basic: dora })).body).toEqual(expect.arrayContaining([
        expect.objectContaining({ email: extra, primary: true }),
        expect.objectContaining({ email: `${dora.username}@example.com`, primary: false }),
      ]));
      expect(await submit(page, `Make ${dora.username}@example.com primary`)).toBe(200);
      expect(await submit(page, `Delete ${extra}`)).toBe(200);
      expect((await api.get('/user/emails', { basic: dora })).body.map((e: { email: string }) => e.email)).not.toContain(extra);

      // The user's own webhooks: one hook for every repository they own.
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Webhooks' }).click()]);
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Add webhook' }).click()]);
      await page.getByLabel('Target URL').fill(`${receiver.url}/${dora.username}`);
      expect(await submit(page, 'Add webhook')).toBe(200);
      expect(await page.getByRole('button', { name: 'Test delivery' }).count()).toBe(0); // repository hooks only
      await expectAccessibleAtBothWidths(page, 'web-config-user-hook');
      const repo = uniqueName('dora-repo');
      expect((await api.post('/user/repos', { basic: dora, body: { name: repo, auto_init: true } })).status).toBe(201);
      const push = await pushAs(dora, repo, 'main', 'hooked.txt', dora.username);
      expect(push.code, push.stderr).toBe(0);
      const got = await waitFor(() => receiver.received.find((r) => r.path === `/${dora.username}` && r.event === 'push'), 'the user hook delivery');
      expect(got.json.repository.name).toBe(repo);
    });
  });

  it('answers bad form input with a 4xx, never a 500', async () => {
    const repo = await newRepo(owner);
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/${repo}/settings`);
      const csrf = await page.locator('input[name=_csrf]').first().inputValue();
      const base = `/${owner.username}/${repo}/settings`;
      const bad: [string, Record<string, string>][] = [
        [base, { action: 'explode' }],
        [base, { action: 'update', repo_name: '../../etc' }],
        [base, { action: 'advanced', pulls_default_merge_style: 'octopus' }],
        [base, { action: 'transfer', new_owner_name: '', repo_name: repo }],
        [`${base}/collaboration/access_mode`, { uid: 'x', mode: '2' }],
        [`${base}/collaboration/access_mode`, { uid: '99999999', mode: '9' }],
        [`${base}/collaboration/delete`, { id: '-1' }],
        [`${base}/branches/edit`, { rule_name: 'main', enable_push: 'maybe' }],
        [`${base}/branches/edit`, { rule_name: 'main', required_approvals: 'many' }],
        [`${base}/branches/delete`, { rule_name: 'no-such-rule' }],
        [`${base}/hooks/gitea/new`, { payload_url: 'not a url', events: 'choose_events' }],
        [`${base}/hooks/abc`, { payload_url: 'http://x' }],
        [`${base}/hooks/999999/test`, {}],
        [`${base}/keys`, { title: 't', content: 'not a key' }],
        [`${base}/actions/secrets`, { name: '', data: '' }],
        [`${base}/actions/variables/delete`, { name: 'NOPE' }],
        [`/${owner.username}/-/packages/generic/nothing/1.0.0/delete`, {}],
        ['/user/settings/account/email', { email: 'not-an-address' }],
        ['/user/settings/account/email/primary', { id: 'nobody@example.com' }],
      ];
      for (const [url, form] of bad) {
        const res = await page.request.post(url, { form: { _csrf: csrf, ...form }, maxRedirects: 0 });
        expect(res.status(), `${url} ${JSON.stringify(form)}`).toBeGreaterThanOrEqual(400);
        expect(res.status(), `${url} ${JSON.stringify(form)}`).toBeLessThan(500);
      }
    });
  });

  it('lists packages, their versions and files with digests and how to install; the owner deletes a version', async () => {
    const name = uniqueName('tool');
    for (const version of ['1.0.0', '1.1.0']) {
      const upload = await fetch(`${suite.baseUrl}/api/packages/${owner.username}/generic/${name}/${version}/tool.bin`, {
        method: 'PUT', headers: { authorization: owner.basic }, body: `tool ${version}`,
      });
      expect(upload.status, await upload.text()).toBe(201);
    }
    await signedIn(owner, async (page) => {
      await page.goto(`/${owner.username}/-/packages?type=generic`);
      await expectAccessibleAtBothWidths(page, 'web-config-packages');
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name }).first().click()]);
      expect(await page.getByRole('link', { name: '1.0.0' }).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-package');
      await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: '1.0.0' }).click()]);
      expect(await page.getByRole('cell', { name: 'tool.bin' }).isVisible()).toBe(true);
      const sha256 = (await api.get(`/packages/${owner.username}/generic/${name}/1.0.0/files`, { basic: owner })).body[0].sha256;
      expect(await page.getByText(sha256).isVisible()).toBe(true);
      expect(await page.getByText(`/api/packages/${owner.username}/generic/${name}/1.0.0/tool.bin`).isVisible()).toBe(true);
      await expectAccessibleAtBothWidths(page, 'web-config-package-version');
      expect(await submit(page, 'Delete this version')).toBe(200);
      expect((await api.get(`/packages/${owner.username}/generic/${name}/1.0.0`, { basic: owner })).status).toBe(404);
    });
    // Someone else sees the public package but no delete button.
    const eve = await createUser(suite, admin, uniqueName('eve'));
    await signedIn(eve, async (page) => {
      expect((await page.goto(`/${owner.username}/-/packages/generic/${name}/1.1.0`))?.status()).toBe(200);
      expect(await page.getByRole('button', { name: 'Delete this version' }).count()).toBe(0);
    });
  });
});
