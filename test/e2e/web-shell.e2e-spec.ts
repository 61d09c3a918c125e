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
import { waitFor } from '../support/wait.js';

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
    expect(await page.locator('.user-menu summary').textContent()).toContain(me.username);
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

  it('creates a repository with a README, a licence and .gitignore templates from the + menu', async () => {
    await page.goto('/');
    await page.locator('.create-menu summary').click();
    await Promise.all([page.waitForNavigation(), page.locator('.create-menu').getByRole('link', { name: 'New repository' }).click()]);
    expect(new URL(page.url()).pathname).toBe('/repo/create');
    await expectAccessibleAtBothWidths(page, 'web-shell-new-repo');
    await page.getByLabel('Repository name').fill(repo);
    await page.getByLabel('Description').fill('Shell notes');
    expect(await page.getByLabel('Add an initial commit with a README').isChecked()).toBe(true);
    await page.getByLabel('License').selectOption({ label: 'MIT License' });
    await page.getByLabel('.gitignore').selectOption(['Go', 'Node']);
    expect(await submit(page, 'Create repository')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${me.username}/${repo}`);
    expect(await page.locator('.markdown h1').first().textContent()).toBe(repo);
    expect(await page.locator('table.tree a.entry').allTextContents()).toEqual(['.gitignore', 'LICENSE', 'README.md']);
    await Promise.all([page.waitForURL(`**/${repo}/src/branch/main/LICENSE`), page.getByRole('link', { name: 'LICENSE' }).click()]);
    expect(await page.locator('table.code').textContent()).toContain(`Copyright (c) ${new Date().getUTCFullYear()} ${me.username}`);
    await page.goto(`/${me.username}/${repo}/src/branch/main/.gitignore`);
    const ignored = await page.locator('table.code .lc').allTextContents();
    // The options in list order (Go before Node), each under Gitea's heading line.
    expect(ignored[0]).toBe('# ---> Go');
    expect(ignored).toContain('# ---> Node');
    expect(ignored.indexOf('# ---> Node')).toBeGreaterThan(ignored.indexOf('*.exe'));
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
    await page.getByLabel('Add an initial commit with a README').uncheck();
    expect(await submit(page, 'Create repository')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${org}/tools`);
    const created = await api.get<{ private: boolean; empty: boolean; owner: { login: string } }>(`/repos/${org}/tools`, { basic: basic() });
    expect(created.body).toMatchObject({ private: true, empty: true, owner: { login: org } });
    // The same name again: the service refuses, the form says so with 409's form status.
    await page.goto(`/repo/create?org=${org}`);
    await page.getByLabel('Repository name').fill('tools');
    expect(await submit(page, 'Create repository')).toBe(422);
    expect(await page.getByRole('alert').textContent()).toContain('already exists');
  });

  it('creates labels and a milestone on their pages', async () => {
    await page.goto(`/${me.username}/${repo}/labels`);
    await expectAccessibleAtBothWidths(page, 'web-shell-labels-empty');
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'New label' }).click()]);
    await expectAccessibleAtBothWidths(page, 'web-shell-new-label');
    await page.getByLabel('Label name').fill('bug');
    await page.getByLabel('Colour').fill('#d73a4a');
    await page.getByLabel('Description').fill('Something is broken');
    expect(await submit(page, 'Create label')).toBe(200);
    await page.goto(`/${me.username}/${repo}/labels/new`);
    await page.getByLabel('Label name').fill('docs');
    expect(await submit(page, 'Create label')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${me.username}/${repo}/labels`);
    expect(await page.locator('.label-row .label').allTextContents()).toEqual(['bug', 'docs']);
    await expectAccessibleAtBothWidths(page, 'web-shell-labels');
    // Edit and delete, from the row's own forms.
    await page.goto(`/${me.username}/${repo}/labels/new`);
    await page.getByLabel('Label name').fill('tmp');
    expect(await submit(page, 'Create label')).toBe(200);
    const row = page.locator('.label-row', { hasText: 'tmp' });
    await row.getByText('Edit').click();
    await row.getByLabel('Label name').fill('temporary');
    await row.getByLabel('Description').fill('Goes away');
    expect(await submit(page, 'Save label')).toBe(200);
    expect(await page.locator('.label-row', { hasText: 'Goes away' }).locator('.label').textContent()).toBe('temporary');
    const temporary = page.locator('.label-row', { hasText: 'temporary' });
    await temporary.getByText('Edit').click();
    await Promise.all([page.waitForNavigation(), temporary.getByRole('button', { name: 'Delete label' }).click()]);
    expect(await page.locator('.label-row .label').allTextContents()).toEqual(['bug', 'docs']);
    // A bad colour is the service's refusal, shown on the form.
    const res = await page.request.post(`/${me.username}/${repo}/labels/new`, {
      form: { _csrf: await page.locator('input[name=_csrf]').first().inputValue(), title: 'x', color: 'blue' },
    });
    expect(res.status()).toBe(422);

    await page.goto(`/${me.username}/${repo}/milestones`);
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'New milestone' }).click()]);
    await expectAccessibleAtBothWidths(page, 'web-shell-new-milestone');
    await page.getByLabel('Title').fill('v1.0');
    await page.getByLabel('Description').fill('First release');
    await page.getByLabel('Due date').fill('2031-01-31');
    expect(await submit(page, 'Create milestone')).toBe(200);
    expect(await page.locator('.milestone-row strong').allTextContents()).toEqual(['v1.0']);
    await expectAccessibleAtBothWidths(page, 'web-shell-milestones');
    const api1 = await api.get<Array<{ title: string; due_on: string }>>(`/repos/${me.username}/${repo}/milestones`, { basic: basic() });
    expect(api1.body).toMatchObject([{ title: 'v1.0', due_on: '2031-01-31T23:59:59Z' }]);
  });

  it('opens an issue with labels, a milestone and an assignee from the list\'s New issue button', async () => {
    await page.goto(`/${me.username}/${repo}/issues`);
    await expectAccessibleAtBothWidths(page, 'web-shell-issues-empty');
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'New issue' }).click()]);
    await expectAccessibleAtBothWidths(page, 'web-shell-new-issue');
    await page.getByLabel('Title').fill('The parser drops @mentions');
    await page.getByLabel('Description').fill(`Seen with @${me.username}, see #1.\n\n- [x] reproduce\n- [ ] fix`);
    await page.getByRole('checkbox', { name: 'bug' }).check();
    await page.getByLabel('Milestone').selectOption({ label: 'v1.0' });
    await page.getByRole('checkbox', { name: me.username }).check();
    expect(await submit(page, 'Create issue')).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/${me.username}/${repo}/issues/1`);
    const issue = await api.get<{ labels: Array<{ name: string }>; milestone: { title: string }; assignees: Array<{ login: string }> }>(
      `/repos/${me.username}/${repo}/issues/1`, { basic: basic() },
    );
    expect(issue.body.labels.map((l) => l.name)).toEqual(['bug']);
    expect(issue.body.milestone.title).toBe('v1.0');
    expect(issue.body.assignees.map((a) => a.login)).toEqual([me.username]);
    // The page: repository header on the Issues tab, sidebar, Markdown with references and task lists.
    expect(await page.locator('.repo-tabs a[aria-current=page]').textContent()).toContain('Issues');
    expect(await page.locator('.issue-sidebar .label').allTextContents()).toEqual(['bug']);
    expect(await page.locator('.issue-sidebar').getByRole('link', { name: 'v1.0' }).count()).toBe(1);
    expect(await page.locator('.comment-body a.ref').evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      .toEqual([`/${me.username}`, `/${me.username}/${repo}/issues/1`]);
    expect(await page.locator('.comment-body input.task:checked').count()).toBe(1);
    await expectAccessibleAtBothWidths(page, 'web-shell-issue');
  });

  it('comments, closes with a comment, reopens and edits the title', async () => {
    const path = `/${me.username}/${repo}/issues/1`;
    await page.goto(path);
    await page.getByLabel('Add a comment').fill('Looking into it.');
    expect(await submit(page, 'Comment')).toBe(200);
    await page.getByLabel('Add a comment').fill('Fixed by abc1234f.');
    expect(await submit(page, 'Close with comment')).toBe(200);
    expect(await page.locator('.issue-state .badge').first().textContent()).toBe('closed');
    expect(await submit(page, 'Reopen with comment')).toBe(200);
    expect(await page.locator('.issue-state .badge').first().textContent()).toBe('open');
    await page.getByText('Edit title').click();
    await page.getByLabel('Title', { exact: true }).fill('The parser drops mentions');
    expect(await submit(page, 'Save title')).toBe(200);
    expect(await page.locator('#issue-title').textContent()).toBe('The parser drops mentions');
    // One ordered timeline: comment, comment, closed, reopened, title changed — each with its avatar and relative time.
    const entries = await page.locator('ol.timeline > li').evaluateAll((lis) => lis.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    expect(entries.slice(1).map((e) => e?.replace(/ (just now|\d+ \w+ ago)$/, '').replace(/ (just now|\d+ \w+ ago) /, ' '))).toEqual([
      `${me.username} commented Looking into it.`,
      `${me.username} commented Fixed by abc1234f.`,
      `${me.username} closed this`,
      `${me.username} reopened this`,
      `${me.username} changed the title from “The parser drops @mentions” to “The parser drops mentions”`,
    ]);
    expect(await page.locator('ol.timeline time').count()).toBe(6);
    expect(await page.locator('.comment-body a.ref[href$="/commit/abc1234f"]').count()).toBe(1);
    // An empty comment without a state change is refused with a 4xx, not a 500.
    const res = await page.request.post(`${path}/comments`, {
      form: { _csrf: await page.locator('input[name=_csrf]').first().inputValue(), content: '  ' },
    });
    expect(res.status()).toBe(422);
    // The sidebar's forms change labels through the API's messages.
    await page.getByText('Edit labels').click();
    await page.getByRole('checkbox', { name: 'docs' }).check();
    expect(await submit(page, 'Save labels')).toBe(200);
    expect(await page.locator('.issue-sidebar ul.labels .label').allTextContents()).toEqual(['bug', 'docs']);
    await page.getByText('Edit assignees').click();
    await page.locator('.issue-sidebar').getByRole('checkbox', { name: me.username }).uncheck();
    expect(await submit(page, 'Save assignees')).toBe(200);
    expect(await page.locator('.issue-sidebar').getByText('No one assigned').count()).toBe(1);
    expect(await page.locator('ol.timeline > li.event').last().textContent()).toContain(`${me.username} removed their assignment`);
    await expectAccessibleAtBothWidths(page, 'web-shell-issue-conversation');
  });

  it('filters the issue list by label, milestone, assignee, poster and keyword, with open/closed counts', async () => {
    const repoPath = `/${me.username}/${repo}`;
    const second = await api.post<{ number: number }>(`/repos/${me.username}/${repo}/issues`, { basic: basic(), body: { title: 'Unrelated chore' } });
    expect(second.status).toBe(201);
    await page.goto(`${repoPath}/issues`);
    expect(await page.locator('.item-list .item-title').allTextContents()).toEqual(['Unrelated chore', 'The parser drops mentions']);
    expect(await page.getByRole('link', { name: /^Open/ }).textContent()).toContain('2');
    await page.getByLabel('Label').selectOption({ label: 'bug' });
    expect(await submit(page, 'Filter')).toBe(200);
    expect(await page.locator('.item-list .item-title').allTextContents()).toEqual(['The parser drops mentions']);
    await expectAccessibleAtBothWidths(page, 'web-shell-issues-filtered');
    const me2 = (await api.get<{ id: number }>('/user', { basic: basic() })).body.id;
    // The conversation test unassigned the issue; assign it again for the assignee filter.
    expect((await api.patch(`/repos/${me.username}/${repo}/issues/1`, { basic: basic(), body: { assignees: [me.username] } })).status).toBe(201);
    for (const query of [`milestone=${(await api.get<Array<{ id: number }>>(`/repos/${me.username}/${repo}/milestones`, { basic: basic() })).body[0].id}`,
      `assignee=${me2}`, 'q=parser']) {
      await page.goto(`${repoPath}/issues?${query}`);
      expect(await page.locator('.item-list .item-title').allTextContents(), query).toEqual(['The parser drops mentions']);
    }
    await page.goto(`${repoPath}/issues?poster=${me2}`);
    expect(await page.locator('.item-list .item-title').count()).toBe(2);
    await page.goto(`${repoPath}/issues?poster=999999999`);
    expect(await page.locator('.item-list .item').count()).toBe(0);
  });

  it('shows the dashboard with repositories, organizations and recent activity, and the notifications page', async () => {
    // Someone else comments on the issue: the owner gets a notification.
    const other = { username: uniqueName('peer'), password: 'peer-password-1' };
    const signup = await newPage(browser, suite.baseUrl);
    try {
      await signup.page.goto('/user/sign_up');
      await signup.page.getByLabel('Username').fill(other.username);
      await signup.page.getByLabel('Email address').fill(`${other.username}@example.com`);
      await signup.page.getByLabel('Password', { exact: true }).fill(other.password);
      await signup.page.getByLabel('Confirm password').fill(other.password);
      expect(await submit(signup.page, 'Register account')).toBe(200);
      await signup.page.goto(`/${me.username}/${repo}/issues/1`);
      // A reader sees the sidebar but no edit forms, and cannot close someone else's issue.
      expect(await signup.page.getByText('Edit labels').count()).toBe(0);
      expect(await signup.page.getByRole('button', { name: 'Close with comment' }).count()).toBe(0);
      await signup.page.getByLabel('Add a comment').fill(`Same here, @${me.username}.`);
      expect(await submit(signup.page, 'Comment')).toBe(200);
    } finally {
      await signup.context.close();
    }
    await waitFor(async () => (await api.get<unknown[]>('/notifications', { basic: basic() })).body.length > 0, 'the owner\'s notification');
    await page.goto('/');
    expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(1);
    expect(await page.locator('#dash-repos + ul a').allTextContents()).toEqual(expect.arrayContaining([`${me.username}/${repo}`, `${org}/tools`]));
    expect(await page.locator('section[aria-labelledby=dash-orgs]').getByRole('link', { name: org }).count()).toBe(1);
    expect(await page.locator('section[aria-labelledby=dash-activity]').getByRole('link', { name: 'The parser drops mentions' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: /^Notifications 1 unread/ }).count()).toBe(1);
    await expectAccessibleAtBothWidths(page, 'web-shell-dashboard');
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: /^Notifications/ }).click()]);
    expect(await page.locator('.thread > a').allTextContents()).toEqual(['The parser drops mentions']);
    await expectAccessibleAtBothWidths(page, 'web-shell-notifications');
    expect(await submit(page, /^Mark as read/)).toBe(200);
    expect(await page.locator('.thread').count()).toBe(0);
    expect((await api.get<{ new: number }>('/notifications/new', { basic: basic() })).body.new).toBe(0);
  });

  it('fixes the defects: empty-repository commands on their own lines, "1 commit", relative times, the commit page on a phone', async () => {
    await page.goto(`/${org}/tools`);
    const commands = (await page.locator('pre').first().textContent())!.split('\n');
    expect(commands).toEqual([expect.stringMatching(/^git remote add origin \S+\/tools\.git$/), 'git push -u origin main']);
    await expectAccessibleAtBothWidths(page, 'web-shell-empty-repo');

    await page.goto(`/${me.username}/${repo}/commits/branch/main`);
    expect(await page.getByText('1 commit', { exact: true }).count()).toBe(1);
    expect(await page.locator('ol.commits time[title$=" UTC"]').count()).toBeGreaterThan(0);
    const head = await api.get<Array<{ sha: string }>>(`/repos/${me.username}/${repo}/commits?limit=1`, { basic: basic() });
    await page.goto(`/${me.username}/${repo}/commit/${head.body[0].sha}`);
    expect(await page.locator('time[title$=" UTC"]').count()).toBe(1);
    await expectAccessibleAtBothWidths(page, 'web-shell-commit');
  });
});
