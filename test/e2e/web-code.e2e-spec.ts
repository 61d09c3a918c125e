/**
 * The code area of the web UI in a real Chromium against the real suite (issue 22, slice "code"): the tree with the
 * last commit of each entry and the latest-commit bar; an image, an SVG and a Markdown file in the file view and their
 * raw answers' content types and sandbox; blame; the branches page (ahead/behind, protection badge, deleting a branch
 * through its form); tags with archive downloads whose zip and tar.gz list the files; and a release created through
 * the New release form with an attachment uploaded in the same form, then downloaded, edited and deleted. Every page
 * gets axe at 1280 and 390 px and screenshots.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRunner, httpCloneUrl, run, workspace, writeFiles, type Git } from '../support/git.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import {
  chromiumAvailable, expectAccessibleAtBothWidths, launchBrowser, newPage, signIn, type Browser, type Page,
} from '../support/browser.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** A one-page PDF saying "Hello PDF". */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n' +
    '4 0 obj<</Length 44>>stream\nBT /F1 24 Tf 20 100 Td (Hello PDF) Tj ET\nendstream endobj\n' +
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>\n';

const ws = workspace('cairn-e2e-web-code-');
let suite: TestSuite;
let api: HttpClient;
let git: Git;
let browser: Browser;
let alice: Account;
let work: string;
const repo = 'code-demo';
let base: string;

async function commit(message: string, files: Record<string, string | Buffer>): Promise<string> {
  writeFiles(work, files);
  await git.ok(['add', '-A'], { cwd: work });
  await git.ok(['commit', '-q', '-m', message], { cwd: work });
  return git.ok(['rev-parse', 'HEAD'], { cwd: work });
}

/** Runs `body` on a fresh page signed in as alice (or anonymous), closing it afterwards. */
async function onPage(who: Account | null, body: (page: Page) => Promise<void>): Promise<void> {
  const { context, page } = await newPage(browser, suite.baseUrl);
  try {
    if (who) await signIn(page, who);
    await body(page);
  } finally {
    await context.close();
  }
}

async function visit(page: Page, url: string, status = 200): Promise<void> {
  const res = await page.goto(url);
  expect(res?.status(), url).toBe(status);
}

/** Submits a form by clicking its button and waits for the page it leads to. */
async function submit(page: Page, button: ReturnType<Page['getByRole']>): Promise<void> {
  await Promise.all([page.waitForNavigation(), button.click()]);
}

describe.skipIf(!chromiumAvailable())('web UI: code, branches, tags, releases', () => {
  beforeAll(async () => {
    suite = await sharedTestSuite();
    api = http(suite);
    git = gitRunner(ws.dir('home'));
    const admin = await suite.createAdmin();
    alice = await createUser(suite, admin, uniqueName('alice'));
    base = `/${alice.username}/${repo}`;
    const made = await api.post('/user/repos', { basic: alice, body: { name: repo, description: 'code browsing' } });
    expect(made.status, made.text).toBe(201);

    work = ws.dir('work');
    await git.ok(['init', '-q', '-b', 'main', work]);
    await commit('initial import', {
      'README.md': '# Code demo\n\n![logo](docs/logo.png)\n',
      'docs/logo.png': PNG,
      'docs/guide.md': '# Guide\n\nSee **this**.\n',
      'docs/drawing.svg': SVG,
      'docs/hello.pdf': PDF,
      'src/app.ts': 'export const a = 1;\nexport const b = 2;\n',
    });
    await commit('change b in app', { 'src/app.ts': 'export const a = 1;\nexport const b = 3;\n' });
    await git.ok(['tag', '-a', 'v1.0', '-m', 'first version'], { cwd: work });
    await git.ok(['branch', 'stale'], { cwd: work });
    await git.ok(['branch', 'guarded'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'feature/one'], { cwd: work });
    await commit('feature work', { 'feature.txt': 'only here\n' });
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    const creds = { username: alice.username, secret: alice.password };
    await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, creds), 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], { cwd: work });
    const rule = await api.post(`/repos/${alice.username}/${repo}/branch_protections`, { basic: alice, body: { rule_name: 'guarded' } });
    expect(rule.status, rule.text).toBe(201);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
    ws.cleanup();
  });

  it('shows the tree with the latest commit, each entry\'s last commit and sizes', async () => {
    await onPage(null, async (page) => {
      await visit(page, base);
      const bar = page.locator('.latest-commit');
      await expect.poll(() => bar.textContent()).toContain('change b in app');
      expect(await bar.getByRole('link', { name: '2 commits' }).getAttribute('href')).toBe(`${base}/commits/branch/main`);
      const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
      expect(await row('src/').textContent()).toContain('change b in app');
      expect(await row('docs/').textContent()).toContain('initial import');
      expect(await row('README.md').textContent()).toContain('B');
      // The README's image is shown from the raw URL (and loads).
      const logo = page.locator('.markdown img');
      await expect.poll(() => logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
      await expectAccessibleAtBothWidths(page, 'web-code-tree');
      await visit(page, `${base}/src/branch/main/docs`);
      expect(await row('logo.png').textContent()).toContain('B');
      // A folder's bar: its own newest commit and history.
      expect(await bar.textContent()).toContain('initial import');
      expect(await bar.getByRole('link', { name: '1 commit', exact: true }).getAttribute('href')).toBe(`${base}/commits/branch/main/docs`);
      await expectAccessibleAtBothWidths(page, 'web-code-tree-folder');
    });
  });

  it('shows images, SVG, PDF and Markdown in the file view, and serves raw images as images, sandboxed', async () => {
    await onPage(null, async (page) => {
      await visit(page, `${base}/src/branch/main/docs/logo.png`);
      const img = page.getByRole('img', { name: 'logo.png' });
      await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
      await expectAccessibleAtBothWidths(page, 'web-code-file-image');

      const raw = await page.request.get(`${base}/raw/branch/main/docs/logo.png`);
      expect(raw.status()).toBe(200);
      expect(raw.headers()['content-type']).toBe('image/png');
      expect(raw.headers()['x-content-type-options']).toBe('nosniff');
      expect(raw.headers()['content-security-policy']).toMatch(/sandbox/);
      expect(Buffer.from(await raw.body()).equals(PNG)).toBe(true);
      const svg = await page.request.get(`${base}/raw/branch/main/docs/drawing.svg`);
      expect(svg.headers()['content-type']).toBe('image/svg+xml');
      expect(svg.headers()['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
      const text = await page.request.get(`${base}/raw/branch/main/README.md`);
      expect(text.headers()['content-type']).toBe('text/plain; charset=utf-8');

      // An SVG opened directly runs nothing: the sandbox keeps its script from the site's origin.
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await visit(page, `${base}/raw/branch/main/docs/drawing.svg`);
      expect(dialogs).toEqual([]);

      // A PDF is shown in the file view by the browser's own viewer, framing the sandboxed raw answer.
      await visit(page, `${base}/src/branch/main/docs/hello.pdf`);
      const frame = page.locator('iframe.file-pdf');
      expect(await frame.getAttribute('src')).toBe(`${base}/raw/branch/main/docs/hello.pdf`);
      const pdf = await page.request.get(`${base}/raw/branch/main/docs/hello.pdf`);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect(pdf.headers()['content-security-policy']).toMatch(/sandbox/);
      expect(pdf.headers()['x-frame-options']).toBe('SAMEORIGIN');
      // The frame holds the PDF (Chromium's viewer is a frame of its own inside it), not an error page.
      await expect.poll(() => page.frames().some((f) => f.url().endsWith('/docs/hello.pdf') && f !== page.mainFrame())).toBe(true);
      expect(page.frames().some((f) => f.url().startsWith('chrome-error:'))).toBe(false);
      await expectAccessibleAtBothWidths(page, 'web-code-file-pdf');

      await visit(page, `${base}/src/branch/main/docs/guide.md`);
      expect(await page.locator('.file-markdown strong').textContent()).toBe('this');
      await expectAccessibleAtBothWidths(page, 'web-code-file-markdown');
      await submit(page, page.getByRole('link', { name: 'Source' }));
      expect(await page.locator('table.code').textContent()).toContain('See **this**.');
      await submit(page, page.getByRole('link', { name: 'Rendered' }));
      expect(await page.locator('.file-markdown strong').count()).toBe(1);
    });
  });

  it('blames a file from the file view', async () => {
    await onPage(null, async (page) => {
      await visit(page, `${base}/src/branch/main/src/app.ts`);
      await submit(page, page.getByRole('link', { name: 'Blame' }));
      expect(new URL(page.url()).pathname).toBe(`${base}/blame/branch/main/src/app.ts`);
      const line = (n: number) => page.locator(`#L${n}`);
      expect(await line(1).textContent()).toContain('initial import');
      expect(await line(1).textContent()).toContain('export const a = 1;');
      expect(await line(2).textContent()).toContain('change b in app');
      await expectAccessibleAtBothWidths(page, 'web-code-blame');
      await visit(page, `${base}/blame/branch/main/no/such/file.ts`, 404);
    });
  });

  it('lists branches with ahead/behind and protection, and deletes one through its form', async () => {
    await onPage(alice, async (page) => {
      await visit(page, `${base}/branches`);
      const defaults = page.getByRole('region', { name: 'Default branch' });
      expect(await defaults.getByRole('link', { name: 'main', exact: true }).count()).toBe(1);
      const row = (name: string) => page.locator('.ref-row').filter({ has: page.getByRole('link', { name, exact: true }) });
      expect(await row('feature/one').locator('.ahead-behind').textContent()).toMatch(/0 behind\s*\|\s*1 ahead/);
      expect(await row('feature/one').getByRole('link', { name: 'New pull request' }).getAttribute('href'))
        .toBe(`${base}/compare/main...feature/one`);
      expect(await row('guarded').textContent()).toContain('protected');
      expect(await row('guarded').getByRole('button', { name: /Delete/ }).count()).toBe(0);
      expect(await defaults.getByRole('button', { name: /Delete/ }).count()).toBe(0);
      await expectAccessibleAtBothWidths(page, 'web-code-branches');

      page.once('dialog', (d) => void d.accept());
      await submit(page, row('stale').getByRole('button', { name: 'Delete branch stale' }));
      expect(new URL(page.url()).pathname).toBe(`${base}/branches`);
      expect(await page.getByRole('status').textContent()).toContain('Branch "stale" has been deleted.');
      expect(await row('stale').count()).toBe(0);
    });
    expect((await api.get(`/repos/${alice.username}/${repo}/branches/stale`, { basic: alice })).status).toBe(404);
    // Visitors see no delete buttons.
    await onPage(null, async (page) => {
      await visit(page, `${base}/branches`);
      expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    });
  });

  it('lists tags with archives whose zip and tar.gz hold the files', async () => {
    await onPage(null, async (page) => {
      await visit(page, `${base}/tags`);
      expect(await page.getByRole('link', { name: 'v1.0', exact: true }).count()).toBe(1);
      expect(await page.getByText('first version').count()).toBe(1);
      await expectAccessibleAtBothWidths(page, 'web-code-tags');

      const zip = await page.request.get(`${base}/archive/v1.0.zip`);
      expect(zip.status()).toBe(200);
      expect(zip.headers()['content-type']).toBe('application/zip');
      expect(zip.headers()['content-disposition']).toContain(`${repo}-v1.0.zip`);
      const zipFile = path.join(ws.dir('archives'), 'a.zip');
      writeFileSync(zipFile, await zip.body());
      const listed = await run('unzip', ['-Z1', zipFile]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.split('\n')).toEqual(expect.arrayContaining([`${repo}/README.md`, `${repo}/src/app.ts`, `${repo}/docs/logo.png`]));

      const tgz = await page.request.get(`${base}/archive/feature/one.tar.gz`);
      expect(tgz.status()).toBe(200);
      const tgzFile = path.join(ws.dir('archives'), 'a.tar.gz');
      writeFileSync(tgzFile, await tgz.body());
      const tarred = await run('tar', ['-tzf', tgzFile]);
      expect(tarred.code, tarred.stderr).toBe(0);
      expect(tarred.stdout.split('\n')).toEqual(expect.arrayContaining([`${repo}/feature.txt`, `${repo}/src/app.ts`]));

      expect((await page.request.get(`${base}/archive/no-such-ref.zip`)).status()).toBe(404);
      expect((await page.request.get(`${base}/archive/v1.0.rar`)).status()).toBe(404);
    });
  });

  it('creates a release with an attachment through the form, downloads it, edits and deletes the release', async () => {
    const asset = path.join(ws.dir('upload'), 'notes-bundle.txt');
    const bytes = Buffer.from('release asset bytes\n'.repeat(100));
    writeFileSync(asset, bytes);
    await onPage(alice, async (page) => {
      await visit(page, `${base}/releases`);
      await submit(page, page.getByRole('link', { name: 'New release' }));
      await expectAccessibleAtBothWidths(page, 'web-code-release-new');
      await page.getByLabel('Tag name').fill('v2.0');
      await page.getByLabel('Title').fill('Second');
      await page.getByLabel('Release notes (Markdown)').fill('The **second** release.');
      await page.getByLabel('Attachments').setInputFiles(asset);
      await submit(page, page.getByRole('button', { name: 'Publish release' }));
      expect(new URL(page.url()).pathname).toBe(`${base}/releases/tag/v2.0`);
      expect(await page.locator('.release .markdown strong').textContent()).toBe('second');
      const link = page.getByRole('link', { name: 'notes-bundle.txt' });
      expect(await page.locator('.assets li').first().textContent()).toContain('2 KiB');
      await expectAccessibleAtBothWidths(page, 'web-code-release');

      const download = await page.request.get((await link.getAttribute('href'))!);
      expect(download.status()).toBe(200);
      expect(Buffer.from(await download.body()).equals(bytes)).toBe(true);
      await visit(page, `${base}/releases`);
      expect(await page.locator('.assets li').first().textContent()).toContain('1 download');
      await expectAccessibleAtBothWidths(page, 'web-code-releases');

      // A forged multipart form (no CSRF token, or a wrong one) creates nothing, whatever the files it carries.
      for (const csrf of [undefined, 'x'.repeat(43)]) {
        const forged = await page.request.post(`${base}/releases/new`, {
          multipart: {
            ...(csrf ? { _csrf: csrf } : {}),
            tag_name: 'forged',
            attachment: { name: 'evil.txt', mimeType: 'text/plain', buffer: Buffer.from('x') },
          },
        });
        expect(forged.status()).toBe(403);
      }
      expect((await api.get(`/repos/${alice.username}/${repo}/releases/tags/forged`, { basic: alice })).status).toBe(404);

      // A tag that exists already as a release: the form again, with the service's message and a 4xx.
      await visit(page, `${base}/releases/new`);
      await page.getByLabel('Tag name').fill('v2.0');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Publish release' }).click(),
      ]);
      expect(refused.status()).toBeGreaterThanOrEqual(400);
      expect(refused.status()).toBeLessThan(500);
      await page.waitForLoadState('load');
      expect(await page.getByRole('alert').count()).toBe(1);

      await visit(page, `${base}/releases/tag/v2.0`);
      await submit(page, page.getByRole('link', { name: 'Edit release Second' }));
      await expectAccessibleAtBothWidths(page, 'web-code-release-edit');
      await page.getByLabel('Title').fill('Second, renamed');
      await page.getByLabel('This is a pre-release').check();
      await submit(page, page.getByRole('button', { name: 'Update release' }));
      expect(await page.getByRole('heading', { name: 'Second, renamed' }).count()).toBe(1);
      expect(await page.getByText('Pre-release').count()).toBeGreaterThan(0);

      page.once('dialog', (d) => void d.accept());
      await submit(page, page.getByRole('button', { name: 'Delete release Second, renamed' }));
      expect(new URL(page.url()).pathname).toBe(`${base}/releases`);
      expect(await page.getByRole('heading', { name: 'Second, renamed' }).count()).toBe(0);
    });
    // The release is gone, its tag stays.
    expect((await api.get(`/repos/${alice.username}/${repo}/releases/tags/v2.0`, { basic: alice })).status).toBe(404);
    expect((await api.get(`/repos/${alice.username}/${repo}/tags/v2.0`, { basic: alice })).status).toBe(200);
  });

  it('refuses write forms to visitors without write access', async () => {
    await onPage(null, async (page) => {
      await visit(page, `${base}/releases`);
      expect(await page.getByRole('link', { name: 'New release' }).count()).toBe(0);
      const res = await page.goto(`${base}/releases/new`);
      expect(new URL(page.url()).pathname).toBe('/user/login');
      expect(res?.status()).toBe(200);
    });
  });
});
