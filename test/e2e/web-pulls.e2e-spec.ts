/**
 * The issue and pull-request pages in a real browser (Chromium through `playwright-core`) against the whole suite,
 * merge-check-worker included: a delayed pull request whose merge box turns from checking to mergeable by itself,
 * merging from the merge box, an update-branch whose tab is closed mid-way (its outcome shows on the next visit), no
 * merge in an archived repository, and an issue's conversation with comments and lock state. Every test saves a screenshot; axe runs on every page visited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumAvailable, expectAccessible, launchBrowser, newPage, screenshot, signIn, type Browser, type Page,
} from '../support/browser.js';
import { DELAY_KEY, PullsWorld, waitFor } from '../support/pulls-world.js';

describe.skipIf(!chromiumAvailable())('web: issues and pull requests in the browser', () => {
  const w = new PullsWorld();
  let browser: Browser;

  beforeAll(async () => {
    await w.start({ [DELAY_KEY]: '7' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await w.stop();
  });

  /** A fresh browser context signed in as the repository's owner. */
  async function owner(): Promise<{ page: Page; close: () => Promise<void> }> {
    const { context, page } = await newPage(browser, w.suite.baseUrl);
    await signIn(page, w.owner);
    return { page, close: () => context.close() };
  }

  /** Submits a form by its button and waits for the page the server redirects to. */
  async function submit(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
    await Promise.all([page.waitForEvent('framenavigated'), button.click()]);
    await page.waitForLoadState('load');
  }

  const pullUrl = (n: number) => `/${w.owner.username}/${w.repo}/pulls/${n}`;

  it('shows a delayed pull request as checking, then mergeable without a reload by hand', async () => {
    await w.commitAndPush('slow', { 'slow.txt': 'slow\n' }, 'slow change');
    const pr = await w.open('slow', 'A slow one');
    await w.settled(pr.number);
    await w.backdate([pr.number], 30);
    const base = await w.commitAndPush('main', { 'main-1.txt': 'moved\n' }, 'move main');
    const delayed = await waitFor('the base move to reach the pull request', async () => {
      const p = await w.listed(pr.number);
      return p.base.sha === base ? p : null;
    });
    await waitFor('an idle queue', () => w.queueIdle());
    expect(delayed.mergeable_state).toBe('checking');
    expect(await w.job(delayed, base)).toBeUndefined(); // inactive for 30 days: nobody checks it until it is viewed

    const { page, close } = await owner();
    try {
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
      const response = await page.goto(pullUrl(pr.number));
      expect(response?.status()).toBe(200);
      // What the server sent: the box was checking and asked to be reloaded.
      const served = await response!.text();
      expect(served).toContain('data-mergeable-state="checking"');
      expect(served).toContain('data-pull-merge-box-reloading-interval="2000"');
      await screenshot(page, 'web-pulls-delayed-checking');
      await expectAccessible(page);
      // The view queued the check; the page's script swaps the box in place once it is done.
      await page.locator('#merge-box[data-mergeable-state="mergeable"]').waitFor({ timeout: 60_000 });
      expect(await page.locator('#merge-box').getAttribute('data-pull-merge-box-reloading-interval')).toBeNull();
      expect(navigations).toBe(1);
      expect(await page.getByRole('button', { name: 'Merge pull request' }).isVisible()).toBe(true);
      await screenshot(page, 'web-pulls-delayed-mergeable');
      await expectAccessible(page);
    } finally {
      await close();
    }
  });

  it('merges from the merge box in the chosen style, after refusing a stale head on the page', async () => {
    await w.commitAndPush('squashme', { 'sq.txt': 'one\n' }, 'sq one');
    await w.commitAndPush('squashme', { 'sq.txt': 'two\n' }, 'sq two');
    const pr = await w.open('squashme', 'Squash me');
    await w.settled(pr.number);
    const baseBefore = await w.tip('main');

    const { page, close } = await owner();
    try {
      await page.goto(`/${w.owner.username}/${w.repo}/pulls`);
      await expectAccessible(page);
      await Promise.all([page.waitForURL(`**${pullUrl(pr.number)}`), page.getByRole('link', { name: 'Squash me' }).click()]);
      // A push after the page was rendered: the form names a stale head, so the merge is refused, and the page says so.
      await w.commitAndPush('squashme', { 'sq.txt': 'three\n' }, 'sq three');
      await submit(page, page.getByRole('button', { name: 'Merge pull request' }));
      expect(await page.locator('.alert-error').textContent()).toContain('Not merged');
      expect(await w.tip('main')).toBe(baseBefore);
      await screenshot(page, 'web-pulls-merge-refused');
      await expectAccessible(page);
      // The box follows the new head (checking, then mergeable) by itself; then the merge goes through.
      await page.locator('#merge-box[data-mergeable-state="mergeable"]').waitFor({ timeout: 60_000 });
      await page.getByLabel('Squash and merge').check();
      await submit(page, page.getByRole('button', { name: 'Merge pull request' }));
      expect(new URL(page.url()).pathname).toBe(pullUrl(pr.number));
      expect(await page.locator('#merge-box .merge-state').textContent()).toBe('merged');
      expect(await page.getByRole('button', { name: 'Merge pull request' }).count()).toBe(0);
      await screenshot(page, 'web-pulls-merged');
      await expectAccessible(page);
    } finally {
      await close();
    }
    // A squash: one new commit on main whose only parent is the old tip.
    const tip = await w.tip('main');
    expect((await w.bare('rev-list', '--parents', '-n', '1', tip)).split(' ').slice(1)).toEqual([baseBefore]);
    expect((await w.api.get(w.path(`/pulls/${pr.number}`), { token: w.token })).body).toMatchObject({ merged: true });
  });

  it('finishes an update-branch whose tab was closed mid-way and shows its outcome on the next visit, once', async () => {
    await w.commitAndPush('behind', { 'behind.txt': '1\n' }, 'behind');
    const pr = await w.open('behind', 'Behind the base');
    await w.settled(pr.number);
    const base = await w.commitAndPush('main', { 'main-2.txt': '2\n' }, 'main moves again');
    await w.settled(pr.number, base);
    const head = await w.tip('behind');

    const first = await owner();
    try {
      await first.page.goto(pullUrl(pr.number));
      expect(await first.page.locator('#behind-base').isVisible()).toBe(true);
      await screenshot(first.page, 'web-pulls-behind');
      await expectAccessible(first.page);
      // Click, wait only until the server has taken the form (its 303), then close the tab.
      const posted = first.page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/update'));
      await first.page.getByRole('button', { name: 'Update branch by merge' }).click();
      expect((await posted).status()).toBe(303);
    } finally {
      await first.close();
    }

    const updated = await waitFor('the head branch to be updated', async () => {
      const tip = await w.tip('behind');
      return tip !== head ? tip : null;
    });
    expect((await w.bare('rev-list', '--parents', '-n', '1', updated)).split(' ').slice(1)).toEqual([head, base]);

    const next = await owner();
    try {
      await next.page.goto(pullUrl(pr.number));
      // Still running when the page was rendered: the box reloads itself until the outcome is in.
      await next.page.locator('#update-status.alert-success').waitFor({ timeout: 60_000 });
      expect(await next.page.locator('#update-status').textContent()).toContain('The branch was updated (merge)');
      await screenshot(next.page, 'web-pulls-update-outcome');
      await expectAccessible(next.page);
      await next.page.reload();
      expect(await next.page.locator('#update-status').count()).toBe(0); // shown once
    } finally {
      await next.close();
    }
  });

  it('offers no merge in an archived repository, and refuses a merge form posted there anyway', async () => {
    await w.commitAndPush('archived', { 'archived.txt': 'a\n' }, 'archived change');
    const pr = await w.open('archived', 'Into an archive');
    await w.settled(pr.number);
    const archive = (archived: boolean) => w.api.patch(w.path(''), { token: w.token, body: { archived } });
    const { page, close } = await owner();
    try {
      await page.goto(pullUrl(pr.number));
      const form = { _csrf: await page.locator('#merge-box input[name=_csrf]').first().inputValue(), Do: 'merge' };
      expect((await archive(true)).status).toBe(200);
      await page.reload();
      expect(await page.locator('#merge-box[data-mergeable-state="mergeable"]').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Merge pull request' }).count()).toBe(0);
      await expectAccessible(page);
      const res = await page.request.post(`${pullUrl(pr.number)}/merge`, { form, maxRedirects: 0 });
      expect(res.status()).toBe(423);
    } finally {
      expect((await archive(false)).status).toBe(200);
      await close();
    }
    expect((await w.api.get(w.path(`/pulls/${pr.number}`), { token: w.token })).body).toMatchObject({ merged: false });
  });

  it('shows an issue with its comments and lock state, and comments and locks through plain forms', async () => {
    const created = await w.api.post(w.path('/issues'), { token: w.token, body: { title: 'Broken <b>build</b>', body: 'It fails.' } });
    expect(created.status, created.text).toBe(201);
    const n = created.body.number as number;

    const { page, close } = await owner();
    try {
      await page.goto(`/${w.owner.username}/${w.repo}/issues`);
      await expectAccessible(page);
      await Promise.all([page.waitForURL(`**/issues/${n}`), page.getByRole('link', { name: 'Broken <b>build</b>' }).click()]);
      await page.getByLabel('Add a comment').fill('Seen on main too.');
      await submit(page, page.getByRole('button', { name: 'Comment', exact: true }));
      expect(await page.locator('.comment-body', { hasText: 'Seen on main too.' }).count()).toBe(1);
      await submit(page, page.getByRole('button', { name: 'Lock conversation' }));
      expect(await page.locator('.issue-state .badge-locked').isVisible()).toBe(true);
      expect(await page.locator('.event', { hasText: 'locked this conversation' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Unlock conversation' }).isVisible()).toBe(true);
      await screenshot(page, 'web-pulls-issue-locked');
      await expectAccessible(page);
    } finally {
      await close();
    }
    const api = await w.api.get(w.path(`/issues/${n}`), { token: w.token });
    expect(api.body).toMatchObject({ is_locked: true, comments: 1 });

    // An anonymous reader on a phone sees the same lock state and no forms, and nothing wider than the screen.
    const anon = await newPage(browser, w.suite.baseUrl, { phone: true });
    try {
      await anon.page.goto(`/${w.owner.username}/${w.repo}/issues/${n}`);
      expect(await anon.page.locator('.issue-state .badge-locked').isVisible()).toBe(true);
      expect(await anon.page.locator('form.comment-form, form.lock-form').count()).toBe(0);
      expect(await anon.page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await screenshot(anon.page, 'web-pulls-issue-anonymous-phone');
      await expectAccessible(anon.page);
    } finally {
      await anon.context.close();
    }
  });
});
