/**
 * The review slice of the web UI in a real Chromium against the real suite: a pull request opened from the compare
 * page, its Commits and Files changed tabs (unified and split, an expander loading hidden lines), a line comment and a
 * change request by a collaborator, a pushed fix, an approval done with the keyboard only, the merge box showing the
 * review state against branch protection's required approvals, and a merge whose "Closes #n" closes the issue (the
 * API's merge does the same). axe at 1280 and 390 px on every page this slice adds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import {
  chromiumAvailable, expectAccessibleAtBothWidths, launchBrowser, newPage, signIn, type Browser, type Page,
} from '../support/browser.js';

type Locator = ReturnType<Page['locator']>;
import { waitFor } from '../support/pulls-world.js';

const ws = workspace('cairn-e2e-web-review-');
let suite: TestSuite;
let api: HttpClient;
let git: Git;
let browser: Browser;
let alice: Account;
let bob: Account;
let work: string;
const repo = 'review-demo';

/** Lines 1..n of a file, so a change in the middle leaves hidden lines on both sides of its hunk. */
const numbered = (n: number, change?: [number, string]) =>
  Array.from({ length: n }, (_, i) => (change && change[0] === i + 1 ? change[1] : `export const line${i + 1} = ${i + 1};`)).join('\n') + '\n';

const path = (p: string) => `/repos/${alice.username}/${repo}${p}`;
const web = (p: string) => `/${alice.username}/${repo}${p}`;

async function push(branch: string): Promise<void> {
  const creds = { username: alice.username, secret: alice.password };
  await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, creds), `${branch}:${branch}`], { cwd: work });
}

/** A fresh browser page signed in as `who`; closed by the returned function. */
async function as(who: Account): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await newPage(browser, suite.baseUrl);
  await signIn(page, who);
  return { page, close: () => context.close() };
}

/** Clicks and waits for the page the server answers with (a form's 303 or a link). */
async function follow(page: Page, target: Locator): Promise<void> {
  await Promise.all([page.waitForEvent('framenavigated'), target.click()]);
  await page.waitForLoadState('load');
}

/** Presses Tab until `target` has the focus (a keyboard user's way there); fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 400): Promise<void> {
  const handle = await target.elementHandle();
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement, handle)) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

describe.skipIf(!chromiumAvailable())('web UI: compare, open and review pull requests', () => {
  let issue: number;
  let pull: number;

  beforeAll(async () => {
    suite = await sharedTestSuite();
    api = http(suite);
    git = gitRunner(ws.dir('home'));
    const admin = await suite.createAdmin();
    [alice, bob] = await Promise.all([createUser(suite, admin, uniqueName('alice')), createUser(suite, admin, uniqueName('bob'))]);
    expect((await api.post('/user/repos', { basic: alice, body: { name: repo } })).status).toBe(201);
    expect((await api.put(path(`/collaborators/${bob.username}`), { basic: alice, body: { permission: 'write' } })).status).toBe(204);
    const label = await api.post(path('/labels'), { basic: alice, body: { name: 'enhancement', color: '#84b6eb' } });
    expect(label.status, label.text).toBe(201);
    const made = await api.post(path('/issues'), { basic: alice, body: { title: 'Greeting is missing' } });
    expect(made.status, made.text).toBe(201);
    issue = made.body.number;

    work = ws.dir('work');
    await git.ok(['init', '-q', '-b', 'main', work]);
    await commitAll(git, work, { 'src/lines.ts': numbered(60), 'README.md': '# Review demo\n' }, 'initial import');
    await push('main');
    // Merging into main needs one approval: the merge box says how many there are.
    const rule = await api.post(path('/branch_protections'), { basic: alice, body: { rule_name: 'main', required_approvals: 1 } });
    expect(rule.status, rule.text).toBe(201);
    await git.ok(['checkout', '-q', '-b', 'feature/greet'], { cwd: work });
    await commitAll(git, work, { 'src/lines.ts': numbered(60, [30, 'export const greeting = "hello";']) }, 'Add a greeting');
    await commitAll(git, work, { 'src/greet.ts': 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n' }, 'Add greet()');
    await push('feature/greet');
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
    ws.cleanup();
  });

  it('opens a pull request from the compare page reached through "New pull request"', async () => {
    const { page, close } = await as(alice);
    try {
      await page.goto(web('/pulls'));
      await follow(page, page.getByRole('link', { name: 'New pull request' }));
      expect(new URL(page.url()).pathname).toBe(web('/compare'));
      await expectAccessibleAtBothWidths(page, 'web-review-compare-picker');
      await page.getByLabel('Compare').selectOption('feature/greet');
      await follow(page, page.getByRole('button', { name: 'Compare' }));
      expect(new URL(page.url()).pathname).toBe(web('/compare/main...feature/greet'));
      // The commits and the diff first, then the form (title from the branch: two commits).
      await expect(page.getByRole('heading', { name: '2 commits' }).isVisible()).resolves.toBe(true);
      expect(await page.locator('.commit-title').allTextContents()).toEqual(['Add greet()', 'Add a greeting']);
      expect(await page.locator('.diff-file-list li').count()).toBe(2);
      expect(await page.getByLabel('Title').inputValue()).toBe('feature/greet');
      await expectAccessibleAtBothWidths(page, 'web-review-compare');

      await page.getByLabel('Title').fill('Greet people');
      await page.getByLabel('Description').fill(`Closes #${issue}`);
      await page.getByLabel('enhancement').check();
      await page.getByRole('group', { name: 'Assignees' }).getByLabel(bob.username).check();
      await follow(page, page.getByRole('button', { name: 'Create pull request' }));
      const m = /\/pulls\/(\d+)$/.exec(new URL(page.url()).pathname);
      expect(m, page.url()).not.toBeNull();
      pull = Number(m![1]);

      // The same pair again: a link to the open pull request instead of the form.
      await page.goto(web('/compare/main...feature/greet'));
      expect(await page.getByRole('link', { name: `Greet people #${pull}` }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Create pull request' }).count()).toBe(0);
      // Nothing to compare: said so, no form.
      await page.goto(web('/compare/feature/greet...main'));
      expect(await page.locator('.alert-info').textContent()).toContain('nothing to compare');
    } finally {
      await close();
    }
    const created = await api.get(path(`/pulls/${pull}`), { basic: alice });
    expect(created.body).toMatchObject({ title: 'Greet people', body: `Closes #${issue}`, head: { ref: 'feature/greet' }, base: { ref: 'main' } });
    expect(created.body.labels.map((l: { name: string }) => l.name)).toEqual(['enhancement']);
    expect(created.body.assignees.map((u: { login: string }) => u.login)).toEqual([bob.username]);
  });

  it('shows the Commits and Files changed tabs, unified and split, and loads hidden lines in place', async () => {
    const { page, close } = await as(alice);
    try {
      await page.goto(web(`/pulls/${pull}/commits`));
      expect(await page.locator('.pull-tabs a[aria-current=page]').textContent()).toContain('Commits');
      expect(await page.locator('.pull-tabs a', { hasText: 'Commits' }).locator('.counter').textContent()).toBe('2');
      expect(await page.locator('.commit-title').count()).toBe(2);
      expect(await page.locator('.commit-row time').first().getAttribute('title')).toMatch(/UTC$/);
      await expectAccessibleAtBothWidths(page, 'web-review-commits');

      await page.goto(web(`/pulls/${pull}/files`));
      expect(await page.locator('.pull-tabs a', { hasText: 'Files changed' }).locator('.counter').textContent()).toBe('2');
      const lines = page.locator('details.diff-file', { hasText: 'src/lines.ts' });
      expect(await lines.locator('tr.add .lc').textContent()).toContain('greeting');
      expect(await lines.locator('tr.add .hljs-string').count()).toBe(1); // highlighted
      await expectAccessibleAtBothWidths(page, 'web-review-files');
      // The expander above the hunk loads lines 1–26 from the blob in place (the page script; a link without it).
      const before = await lines.locator('tr').count();
      await lines.getByRole('link', { name: /Show 26 hidden lines/ }).click();
      await lines.locator('tr', { hasText: 'export const line1 = 1;' }).waitFor();
      expect(await lines.locator('tr').count()).toBe(before - 1 + 26);

      await page.goto(web(`/pulls/${pull}/files?style=split`));
      const split = page.locator('details.diff-file', { hasText: 'src/lines.ts' });
      const pair = split.locator('tr', { has: page.locator('td.lc.del') });
      expect(await pair.locator('td.lc.del').textContent()).toContain('line30');
      expect(await pair.locator('td.lc.add').textContent()).toContain('greeting');
      await expectAccessibleAtBothWidths(page, 'web-review-files-split');
    } finally {
      await close();
    }
  });

  it('takes a line comment and a change request from a collaborator; the merge box says where reviews stand', async () => {
    const { page, close } = await as(bob);
    try {
      await page.goto(web(`/pulls/${pull}/files`));
      const row = page.locator('tr.add', { hasText: 'greeting' });
      await row.getByRole('link', { name: /Comment on new line 30/ }).click();
      const form = page.locator('tr.line-comment-row form');
      await form.getByLabel('Comment').fill('Should this be **"hi"**?');
      await follow(page, form.getByRole('button', { name: 'Add single comment' }));
      const comment = page.locator('tr.line-comments .line-comment-body');
      expect(await comment.locator('strong', { hasText: 'hi' }).count()).toBe(1);
      expect(await comment.textContent()).toContain(bob.username);

      // The same form without the page script: the line number's own page.
      await page.goto(web(`/pulls/${pull}/files/reviews/new_comment?path=src/greet.ts&line=2&side=proposed`));
      await expectAccessibleAtBothWidths(page, 'web-review-line-comment');

      await page.goto(web(`/pulls/${pull}/files`));
      await page.locator('.review-box summary').click();
      await page.getByLabel('Review summary').fill('Please say hi instead.');
      await page.getByLabel('Request changes').check();
      await follow(page, page.getByRole('button', { name: 'Submit review' }));
      expect(new URL(page.url()).pathname).toBe(web(`/pulls/${pull}`));
      const state = page.locator('#merge-box .review-state');
      expect(await state.textContent()).toContain('0 of 1 required approvals');
      expect(await state.textContent()).toContain('1 reviewer requested changes');
    } finally {
      await close();
    }
    const reviews = await api.get(path(`/pulls/${pull}/reviews`), { basic: alice });
    expect(reviews.body.map((r: { state: string }) => r.state)).toEqual(['COMMENT', 'REQUEST_CHANGES']);
    const comments = await api.get(path(`/pulls/${pull}/reviews/${reviews.body[0].id}/comments`), { basic: alice });
    expect(comments.body).toMatchObject([{ path: 'src/lines.ts', position: 30, body: 'Should this be **"hi"**?' }]);
  });

  it('refuses bad review input with a 4xx, never a 500', async () => {
    const { page, close } = await as(bob);
    try {
      await page.goto(web(`/pulls/${pull}/files`));
      const token = await page.locator('.review-form input[name=_csrf]').inputValue();
      const post = (p: string, form: Record<string, string>) =>
        page.evaluate(async ([url, body]) => (await fetch(url, { method: 'POST', body: new URLSearchParams(body), redirect: 'manual' })).status,
          [web(p), { _csrf: token, ...form }] as const);
      expect(await post(`/pulls/${pull}/files/reviews/comments`, { path: 'src/lines.ts', line: '0', side: 'proposed', content: 'x' })).toBe(400);
      expect(await post(`/pulls/${pull}/files/reviews/comments`, { path: 'src/lines.ts', line: '3', side: 'left', content: 'x' })).toBe(400);
      expect(await post(`/pulls/${pull}/files/reviews/submit`, { type: 'lgtm', content: '' })).toBe(400);
      expect(await post('/compare/main...feature/greet', { title: 'x', label_ids: '1,abc' })).toBe(400);
      expect(await post('/compare/main...no-such-branch', { title: 'x' })).toBe(404);
    } finally {
      await close();
    }
  });

  it('takes a pushed fix and an approval done with the keyboard only, then merges with "Closes #n" closing the issue', async () => {
    await commitAll(git, work, { 'src/lines.ts': numbered(60, [30, 'export const greeting = "hi";']) }, 'Say hi');
    await push('feature/greet');
    const fixed = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
    await waitFor('the push to reach the pull request', async () =>
      (await api.get(path(`/pulls/${pull}`), { basic: alice })).body.head.sha === fixed);

    const reviewer = await as(bob);
    try {
      const { page } = reviewer;
      await page.goto(web(`/pulls/${pull}/files`));
      // The earlier comment was on the old head: outdated, shown at the top of its file.
      expect(await page.locator('.outdated-comments .tag', { hasText: 'Outdated' }).count()).toBe(1);
      // A line comment by keyboard: Tab to the line's link, Enter opens the form in place, type, Tab to the button.
      await tabTo(page, page.locator('tr.add', { hasText: '"hi"' }).getByRole('link', { name: /Comment on new line 30/ }));
      await page.keyboard.press('Enter');
      const textarea = page.locator('tr.line-comment-row textarea');
      await textarea.waitFor();
      await waitFor('the comment box to take the focus', () => textarea.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
      await page.keyboard.type('Better, thanks.');
      await page.keyboard.press('Tab');
      await Promise.all([page.waitForEvent('framenavigated'), page.keyboard.press('Enter')]);
      await page.waitForLoadState('load');
      expect(await page.locator('tr.line-comments', { hasText: 'Better, thanks.' }).count()).toBe(1);
      // The review form by keyboard: open it, write the summary, choose Approve, submit.
      await tabTo(page, page.locator('.review-box summary'));
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByLabel('Review summary'));
      await page.keyboard.type('Looks good now.');
      // Tab reaches the radio group at its checked choice (Comment); the arrow key moves to Approve.
      await tabTo(page, page.locator('.review-form').getByLabel('Comment', { exact: true }));
      await page.keyboard.press('ArrowUp');
      expect(await page.getByLabel('Approve').isChecked()).toBe(true);
      await tabTo(page, page.getByRole('button', { name: 'Submit review' }));
      await Promise.all([page.waitForEvent('framenavigated'), page.keyboard.press('Enter')]);
      await page.waitForLoadState('load');
      expect(await page.locator('#merge-box .review-state').textContent()).toContain('1 of 1 required approvals.');
    } finally {
      await reviewer.close();
    }

    const owner = await as(alice);
    try {
      const { page } = owner;
      await page.goto(web(`/pulls/${pull}`));
      await page.locator('#merge-box[data-mergeable-state="mergeable"]').waitFor({ timeout: 60_000 });
      expect(await page.locator('#merge-box .review-state').textContent()).toContain('1 of 1 required approvals.');
      // Gitea's merge_title_field / merge_message_field: the merge commit says what the merger wrote.
      await page.locator('.merge-message summary').click();
      await page.locator('#merge-box').getByLabel('Title').fill('Greet people, reviewed');
      await page.locator('#merge-box').getByLabel('Message').fill(`Closes #${issue}`);
      await follow(page, page.getByRole('button', { name: 'Merge pull request' }));
      expect(await page.locator('#merge-box .merge-state').textContent()).toBe('merged');
    } finally {
      await owner.close();
    }
    const merged = await api.get(path(`/pulls/${pull}`), { basic: alice });
    const commit = await api.get(path(`/git/commits/${merged.body.merge_commit_sha}`), { basic: alice });
    expect(commit.body.commit.message).toBe(`Greet people, reviewed\n\nCloses #${issue}\n`);
    const closed = await api.get(path(`/issues/${issue}`), { basic: alice });
    expect(closed.body.state).toBe('closed');
    const timeline = await api.get(path(`/issues/${issue}/timeline`), { basic: alice });
    expect(timeline.body.map((t: { type: string; body: string }) => [t.type, t.body])).toEqual([['pull_ref', `#${pull}`], ['close', '']]);
  });

  it('closes the issues a pull request merged through the API names (fixes owner/repo#n), and only those', async () => {
    const [fixedIssue, other] = await Promise.all(['Crash on start', 'Unrelated'].map(async (title) =>
      (await api.post(path('/issues'), { basic: alice, body: { title } })).body.number as number));
    await git.ok(['fetch', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, { username: alice.username, secret: alice.password }), 'main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'fix/crash', 'FETCH_HEAD'], { cwd: work });
    await commitAll(git, work, { 'crash.txt': 'fixed\n' }, 'Fix the crash');
    await push('fix/crash');
    const opened = await api.post(path('/pulls'), {
      basic: alice,
      body: { head: 'fix/crash', base: 'main', title: 'Fix the crash', body: `Fixes ${alice.username}/${repo}#${fixedIssue}; see #${other}.` },
    });
    expect(opened.status, opened.text).toBe(201);
    const approved = await api.post(path(`/pulls/${opened.body.number}/reviews`), { basic: bob, body: { event: 'APPROVED', body: 'ok' } });
    expect(approved.status, approved.text).toBe(200);
    const merged = await api.post(path(`/pulls/${opened.body.number}/merge`), { basic: alice, body: { Do: 'merge' } });
    expect(merged.status, merged.text).toBe(200);
    expect((await api.get(path(`/issues/${fixedIssue}`), { basic: alice })).body.state).toBe('closed');
    expect((await api.get(path(`/issues/${other}`), { basic: alice })).body.state).toBe('open');
  });

  it("compares with a fork's branch (owner:branch) and opens the pull request from it", async () => {
    const forked = await api.post(path('/forks'), { basic: bob, body: {} });
    expect(forked.status, forked.text).toBe(202);
    await waitFor('the fork to be ready', async () => {
      const r = await api.get(`/repos/${bob.username}/${repo}`, { basic: bob });
      return r.status === 200 && !r.body.empty;
    });
    const creds = { username: alice.username, secret: alice.password };
    await git.ok(['fetch', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, creds), 'main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'bob-idea', 'FETCH_HEAD'], { cwd: work });
    await commitAll(git, work, { 'idea.md': '# An idea from a fork\n' }, 'An idea from the fork');
    await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, bob.username, repo, { username: bob.username, secret: bob.password }), 'bob-idea:bob-idea'], { cwd: work });

    const { page, close } = await as(bob);
    try {
      await page.goto(web(`/compare/main...${bob.username}:bob-idea`));
      expect(await page.locator('.commit-title').allTextContents()).toEqual(['An idea from the fork']);
      expect(await page.locator('details.diff-file', { hasText: 'idea.md' }).locator('tr.add .lc').textContent()).toContain('An idea from a fork');
      expect(await page.getByLabel('Title').inputValue()).toBe('An idea from the fork');
      await follow(page, page.getByRole('button', { name: 'Create pull request' }));
      const number = Number(/\/pulls\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
      const opened = await api.get(path(`/pulls/${number}`), { basic: alice });
      expect(opened.body).toMatchObject({ title: 'An idea from the fork', head: { ref: 'bob-idea', repo: { full_name: `${bob.username}/${repo}` } } });
      pull = number;
    } finally {
      await close();
    }
  });

  it('keeps "Start a review" comments pending, visible to their author only, until the review is submitted', async () => {
    const { page, close } = await as(alice);
    try {
      await page.goto(web(`/pulls/${pull}/files`));
      await page.locator('tr.add', { hasText: 'An idea from a fork' }).getByRole('link', { name: /Comment on new line 1/ }).click();
      const form = page.locator('tr.line-comment-row form');
      await form.getByLabel('Comment').fill('Which idea?');
      await follow(page, form.getByRole('button', { name: 'Start a review' }));
      expect(await page.locator('tr.line-comments .tag', { hasText: 'Pending' }).count()).toBe(1);
      expect(await page.locator('.review-box summary').textContent()).toContain('1 pending comment');
      // Another reader does not see a draft.
      const other = await as(bob);
      try {
        await other.page.goto(web(`/pulls/${pull}/files`));
        expect(await other.page.locator('tr.line-comments', { hasText: 'Which idea?' }).count()).toBe(0);
      } finally {
        await other.close();
      }
      await page.getByLabel('Review summary').fill('A question first.');
      await follow(page, page.getByRole('button', { name: 'Submit review' }));
    } finally {
      await close();
    }
    const reviews = await api.get(path(`/pulls/${pull}/reviews`), { basic: bob });
    expect(reviews.body).toMatchObject([{ state: 'COMMENT', body: 'A question first.', comments_count: 1, user: { login: alice.username } }]);
  });
});
