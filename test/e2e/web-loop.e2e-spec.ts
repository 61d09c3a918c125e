/**
 * Issue 22's whole collaboration loop in a real browser (Debian's Chromium through `playwright-core`) against the real
 * suite, as two people would do it, each page through its form: both sign up (keyboard only); the owner creates a
 * repository, adds the other as a collaborator, protects the default branch (one approval), adds a webhook and
 * test-delivers it to a real receiver, and opens an issue; the collaborator pushes a branch over git and opens a pull
 * request from the compare page saying "Closes #1"; the owner comments on a line and requests changes (keyboard
 * only); the collaborator pushes a fix; the owner approves and merges from the merge box, and the issue is closed;
 * then a release with a 3 MiB asset that downloads byte for byte. Every page: axe at 1280 and 390 px, no horizontal
 * overflow at 390 px, a screenshot of each step (`test/artifacts/web-loop-*.png`).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable, expectAccessibleAtBothWidths, launchBrowser, newPage, type Browser, type BrowserContext, type Page,
} from '../support/browser.js';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git, type Workspace } from '../support/git.js';
import { uniqueName } from '../support/session.js';
import { basicAuth, sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

interface Person {
  username: string;
  password: string;
  context: BrowserContext;
  page: Page;
}

/** Presses Tab until the focused element matches `selector` (keyboard only: no clicks). */
async function tabTo(page: Page, selector: string, maxPresses = 120): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    const there = await page.evaluate(
      (s) => (globalThis as unknown as { document: { activeElement: { matches(q: string): boolean } | null } }).document.activeElement?.matches(s) ?? false,
      selector,
    );
    if (there) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} on ${page.url()}`);
}

/** Clicks a button and waits for the page the server answers with (the 303's target); returns its status. */
async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<number | undefined> {
  const [response] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), button.click()]);
  return response?.status();
}

describe.skipIf(!chromiumAvailable())('web: the whole collaboration loop in the browser', () => {
  let suite: TestSuite;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let ws: Workspace;
  let git: Git;
  const repo = uniqueName('loop');
  let alice: Person;
  let bob: Person;
  let bobClone: string;
  let pullNumber: number;

  const repoPath = (tail = '') => `/${alice.username}/${repo}${tail}`;
  const api = async (account: Person, route: string) => {
    const res = await fetch(suite.api(route), { headers: { authorization: basicAuth(account.username, account.password) } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    suite = await sharedTestSuite();
    browser = await launchBrowser();
    receiver = await startWebhookReceiver();
    ws = workspace('cairn-e2e-loop-');
    git = gitRunner(ws.dir('home'));
    for (const stem of ['alice', 'bob']) {
      const { context, page } = await newPage(browser, suite.baseUrl);
      const person = { username: uniqueName(stem), password: `Pw-${randomBytes(6).toString('hex')}`, context, page };
      if (stem === 'alice') alice = person;
      else bob = person;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    ws?.cleanup();
  });

  it('1. both sign up with the keyboard only', async () => {
    for (const p of [alice, bob]) {
      await p.page.goto('/user/sign_up');
      if (p === alice) await expectAccessibleAtBothWidths(p.page, 'web-loop-01-sign-up');
      await tabTo(p.page, 'input[name=user_name]');
      await p.page.keyboard.type(p.username);
      await tabTo(p.page, 'input[name=email]');
      await p.page.keyboard.type(`${p.username}@example.com`);
      await tabTo(p.page, 'input[name=password]');
      await p.page.keyboard.type(p.password);
      await tabTo(p.page, 'input[name=retype]');
      await p.page.keyboard.type(p.password);
      await Promise.all([p.page.waitForNavigation({ waitUntil: 'load' }), p.page.keyboard.press('Enter')]);
      expect(new URL(p.page.url()).pathname).toBe('/');
      expect(await p.page.locator('.user-menu summary').textContent()).toContain(p.username);
    }
    await expectAccessibleAtBothWidths(alice.page, 'web-loop-02-dashboard');
  });

  it('2. the owner creates a repository with a README', async () => {
    const { page } = alice;
    await page.goto('/repo/create');
    await expectAccessibleAtBothWidths(page, 'web-loop-03-new-repository');
    await page.locator('input[name=repo_name]').fill(repo);
    await page.locator('input[name=auto_init]').check();
    expect(await submit(page, page.getByRole('button', { name: 'Create repository' }))).toBe(200);
    expect(new URL(page.url()).pathname).toBe(repoPath());
    expect(await page.locator('.markdown').first().textContent()).toContain(repo);
    await expectAccessibleAtBothWidths(page, 'web-loop-04-repository');
  });

  it('3. the owner adds the collaborator, protects main and adds a webhook that test-delivers', async () => {
    const { page } = alice;
    await page.goto(repoPath('/settings/collaboration'));
    await page.locator('input[name=collaborator]').fill(bob.username);
    expect(await submit(page, page.getByRole('button', { name: 'Add collaborator' }))).toBe(200);
    expect(await page.locator('main').textContent()).toContain(bob.username);
    await expectAccessibleAtBothWidths(page, 'web-loop-05-collaborators');
    expect((await api(bob, `/repos/${alice.username}/${repo}`)).body.permissions).toMatchObject({ push: true });

    await page.goto(repoPath('/settings/branches/edit'));
    await page.locator('input[name=rule_name]').fill('main');
    await page.locator('input[name=required_approvals]').fill('1');
    expect(await submit(page, page.getByRole('button', { name: 'Save rule' }))).toBe(200);
    await expectAccessibleAtBothWidths(page, 'web-loop-06-branch-protection');
    const rule = await api(alice, `/repos/${alice.username}/${repo}/branch_protections/main`);
    expect(rule.body).toMatchObject({ rule_name: 'main', required_approvals: 1 });

    await page.goto(repoPath('/settings/hooks/gitea/new'));
    await page.locator('input[name=payload_url]').fill(`${receiver.url}/loop`);
    expect(await submit(page, page.getByRole('button', { name: 'Add webhook' }))).toBe(200);
    await expectAccessibleAtBothWidths(page, 'web-loop-07-webhook');
    expect(await submit(page, page.getByRole('button', { name: 'Test delivery' }))).toBe(200);
    const delivered = await waitFor(() => receiver.received.find((r) => r.path === '/loop'), 'the test delivery');
    expect(delivered.event).toBe('push');
    await page.reload();
    await expectAccessibleAtBothWidths(page, 'web-loop-08-webhook-delivered');
  });

  it('4. the owner opens an issue', async () => {
    const { page } = alice;
    await page.goto(repoPath('/issues/new'));
    await expectAccessibleAtBothWidths(page, 'web-loop-09-new-issue');
    await page.locator('input[name=title]').fill('The greeting is rude');
    await page.locator('textarea[name=content]').fill('It says "go away". It should say hello.');
    expect(await submit(page, page.getByRole('button', { name: 'Create issue' }))).toBe(200);
    expect(new URL(page.url()).pathname).toBe(repoPath('/issues/1'));
    await expectAccessibleAtBothWidths(page, 'web-loop-10-issue');
  });

  it('5. the collaborator pushes a branch and opens a pull request from the compare page', async () => {
    bobClone = ws.dir('bob');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, { username: bob.username, secret: bob.password }), bobClone]);
    await git.ok(['checkout', '-q', '-b', 'greeting'], { cwd: bobClone });
    await commitAll(git, bobClone, { 'greeting.txt': 'line one\ngo away\nline three\n' }, 'Add a greeting');
    await git.ok(['push', '-q', 'origin', 'greeting'], { cwd: bobClone });

    const { page } = bob;
    await page.goto(repoPath('/compare/main...greeting'));
    await expectAccessibleAtBothWidths(page, 'web-loop-11-compare');
    expect(await page.locator('main').textContent()).toContain('Add a greeting');
    await page.locator('input[name=title]').fill('Say hello');
    await page.locator('textarea[name=content]').fill('Closes #1');
    expect(await submit(page, page.getByRole('button', { name: 'Create pull request' }))).toBe(200);
    const match = /\/pulls\/(\d+)$/.exec(new URL(page.url()).pathname);
    expect(match).not.toBeNull();
    pullNumber = Number(match![1]);
    await expectAccessibleAtBothWidths(page, 'web-loop-12-pull-request');
  });

  it('6. the owner comments on a line and requests changes, the request by keyboard only', async () => {
    const { page } = alice;
    await page.goto(repoPath(`/pulls/${pullNumber}/files`));
    await expectAccessibleAtBothWidths(page, 'web-loop-13-files-changed');
    const row = page.locator('tr', { hasText: 'go away' });
    await row.getByRole('link', { name: /Comment on new line 2/ }).click();
    const form = page.locator('form.line-comment-form');
    await form.locator('textarea[name=content]').fill('Please be polite here.');
    await submit(page, form.getByRole('button', { name: 'Add single comment' }));
    expect(await page.locator('.line-comment-body', { hasText: 'Please be polite here.' }).count()).toBe(1);

    // The review: Tab to the box, open it, type the summary, choose "Request changes" with the arrow keys, submit.
    await tabTo(page, 'details.review-box > summary');
    await page.keyboard.press('Enter');
    await tabTo(page, '.review-form textarea[name=content]');
    await page.keyboard.type('Changes needed: see the line comment.');
    await tabTo(page, '.review-form input[name=type]:checked');
    for (let i = 0; i < 3 && !(await page.locator('.review-form input[value=reject]').isChecked()); i++) {
      await page.keyboard.press('ArrowDown');
    }
    expect(await page.locator('.review-form input[value=reject]').isChecked()).toBe(true);
    await tabTo(page, '.review-form button[type=submit]');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
    const reviews = await api(alice, `/repos/${alice.username}/${repo}/pulls/${pullNumber}/reviews`);
    expect(JSON.stringify(reviews.body)).toContain('REQUEST_CHANGES');
    await page.goto(repoPath(`/pulls/${pullNumber}`));
    await expectAccessibleAtBothWidths(page, 'web-loop-14-changes-requested');
  });

  it('7. the collaborator pushes a fix and force-pushes it amended; the owner approves and merges; the issue closes', async () => {
    const before = await git.ok(['rev-parse', 'HEAD'], { cwd: bobClone });
    const fix = await commitAll(git, bobClone, { 'greeting.txt': 'line one\nhello\nline three\n' }, 'Be polite');
    await git.ok(['push', '-q', 'origin', 'greeting'], { cwd: bobClone });
    await git.ok(['commit', '-q', '--amend', '-m', 'Be polite (amended)'], { cwd: bobClone });
    await git.ok(['push', '-q', '--force', 'origin', 'greeting'], { cwd: bobClone });
    const amended = await git.ok(['rev-parse', 'HEAD'], { cwd: bobClone });
    // Both pushes are in the timeline, as Gitea records them: the commit added, then the force-push's two heads.
    const pushes = await waitFor(async () => {
      const res = await fetch(suite.api(`/repos/${alice.username}/${repo}/issues/${pullNumber}/timeline`), {
        headers: { authorization: basicAuth(alice.username, alice.password) },
      });
      const entries = ((await res.json()) as { type: string; body: string }[]).filter((e) => e.type === 'pull_push');
      return entries.length === 2 ? entries.map((e) => JSON.parse(e.body) as unknown) : null;
    }, 'both pushes in the timeline');
    expect(pushes).toEqual([
      { is_force_push: false, commit_ids: [fix] },
      { is_force_push: true, commit_ids: [fix, amended] },
    ]);
    expect(before).not.toBe(fix);
    await alice.page.goto(repoPath(`/pulls/${pullNumber}`));
    expect(await alice.page.locator('.timeline').textContent()).toContain(`force-pushed the branch from ${fix.slice(0, 10)} to ${amended.slice(0, 10)}`);

    const { page } = alice;
    const head = await git.ok(['rev-parse', 'HEAD'], { cwd: bobClone });
    await waitFor(async () => {
      await page.goto(repoPath(`/pulls/${pullNumber}/files`));
      return (await page.locator('.review-form input[name=commit_id]').getAttribute('value')) === head;
    }, 'the files page to show the fix');
    await page.locator('details.review-box > summary').click();
    await page.locator('.review-form input[value=approve]').check();
    await submit(page, page.getByRole('button', { name: 'Submit review' }));

    await page.goto(repoPath(`/pulls/${pullNumber}`));
    await page.locator('#merge-box[data-mergeable-state="mergeable"]').waitFor({ timeout: 60_000 });
    await expectAccessibleAtBothWidths(page, 'web-loop-15-approved-mergeable');
    await submit(page, page.getByRole('button', { name: 'Merge pull request' }));
    expect(await page.locator('#merge-box .merge-state').textContent()).toBe('merged');
    await expectAccessibleAtBothWidths(page, 'web-loop-16-merged');

    const issue = await waitFor(async () => {
      const i = await api(alice, `/repos/${alice.username}/${repo}/issues/1`);
      return i.body.state === 'closed' ? i : null;
    }, 'issue #1 to be closed by the merge');
    expect(issue.body.state).toBe('closed');
    await page.goto(repoPath('/issues/1'));
    expect(await page.locator('.badge-closed, .issue-state').first().textContent()).toMatch(/closed/i);
    await expectAccessibleAtBothWidths(page, 'web-loop-17-issue-closed');
  });

  it('8. the owner publishes a release with a 3 MiB asset (over the anonymous body limit) that downloads byte for byte', async () => {
    const { page } = alice;
    const asset = path.join(ws.dir('asset'), 'greeting-1.0.bin');
    const bytes = randomBytes(3 * 1024 * 1024);
    writeFileSync(asset, bytes);
    await page.goto(repoPath('/releases/new'));
    await expectAccessibleAtBothWidths(page, 'web-loop-18-new-release');
    await page.locator('input[name=tag_name]').fill('v1.0.0');
    await page.locator('input[name=title]').fill('Polite greetings');
    await page.locator('textarea[name=content]').fill('Now says hello (#1).');
    await page.locator('input[name=attachment]').setInputFiles(asset);
    await submit(page, page.locator('form[enctype="multipart/form-data"] button[type=submit]'));
    await page.goto(repoPath('/releases'));
    await expectAccessibleAtBothWidths(page, 'web-loop-19-releases');
    const href = await page.getByRole('link', { name: /greeting-1\.0\.bin/ }).first().getAttribute('href');
    expect(href).toBeTruthy();
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(Buffer.compare(Buffer.from(await res.body()), bytes)).toBe(0);

    // Without the session cookie the same form is held to [server] MAX_BODY_SIZE at the edge.
    const form = new FormData();
    form.append('_csrf', 'x');
    form.append('tag_name', 'v9');
    form.append('attachment', new Blob([bytes]), 'big.bin');
    const anonymous = await fetch(`${suite.baseUrl}${repoPath('/releases/new')}`, { method: 'POST', body: form });
    expect(anonymous.status).toBe(413);
  });
});
