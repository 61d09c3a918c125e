/**
 * The repository area of the web UI in a real Chromium against the real suite: explore, profiles and the dashboard;
 * a repository's home (README rendered from Markdown, raw HTML escaped), file tree, file view (highlighting, raw
 * link), branch/tag switcher and clone URLs; the commit list with a verification badge per commit (commits signed by
 * the real `git commit -S` with SSH and OpenPGP keys) and a commit page with its signer, key and diff. Private
 * repositories stay as hidden as the API keeps them. Every page visited gets a screenshot and an axe run.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRunner, httpCloneUrl, workspace, writeFiles, type Git } from '../support/git.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { commitSignedAs, type CommitSigning } from '../support/signing.js';
import { Gpg, sshKeyPair, sshSign, type GpgKey } from '../support/signing-tools.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import {
  chromiumAvailable, expectAccessible, launchBrowser, newPage, screenshot, signIn, type Browser, type Page,
} from '../support/browser.js';

type KeyPair = Awaited<ReturnType<typeof sshKeyPair>>;

const ws = workspace('cairn-e2e-web-repo-');
let suite: TestSuite;
let api: HttpClient;
let git: Git;
let browser: Browser;
let alice: Account;
let bob: Account;
let aliceKey: KeyPair;
let aliceUnverifiedKey: KeyPair;
let bobKey: KeyPair;
let aliceGpg: GpgKey;
let gpg: Gpg;
let work: string;
const repo = 'web-demo';
const secretRepo = 'hidden-plans';
const sha: Record<string, string> = {};

const emailOf = (a: Account) => `${a.username}@example.com`;
const fingerprint = (k: KeyPair) =>
  `SHA256:${createHash('sha256').update(Buffer.from(k.publicKey.split(' ')[1], 'base64')).digest('base64').replace(/=+$/, '')}`;

const README = [
  '# Web demo',
  '',
  'A **demo** repository. See [the guide](docs/guide.md).',
  '',
  '<script>window.pwned = true</script>',
  '',
  '```ts',
  'const x = 1;',
  '```',
  '',
].join('\n');

/** Commits the work tree by `who`, signed as asked. */
async function commit(message: string, who: Account, sign: CommitSigning = {}): Promise<string> {
  await git.ok(['add', '-A'], { cwd: work });
  return commitSignedAs(git, work, message, { name: who.username, email: emailOf(who) }, sign, gpg.home);
}

async function addSshKey(who: Account, pair: KeyPair, verify: boolean): Promise<void> {
  const added = await api.post('/user/keys', { basic: who, body: { title: uniqueName('k'), key: pair.publicKey } });
  expect(added.status, added.text).toBe(201);
  if (!verify) return;
  const token = await api.get('/user/ssh_key_token', { basic: who });
  const res = await api.post('/user/ssh_key_verify', {
    basic: who,
    body: { key_id: added.body.id, signature: await sshSign(pair.privateKeyPath, token.text) },
  });
  expect(res.status, res.text).toBe(200);
}

/** Runs `body` on a fresh page (optionally signed in), then screenshots it as `name` and runs axe on it. */
async function onPage(name: string, who: Account | null, body: (page: Page) => Promise<void>): Promise<void> {
  const { context, page } = await newPage(browser, suite.baseUrl);
  try {
    if (who) await signIn(page, who);
    await body(page);
    await screenshot(page, `web-repo-${name}`);
    await expectAccessible(page);
  } finally {
    await context.close();
  }
}

/** Visits `url`, expects `status`, and checks the page for accessibility problems before going on. */
async function visit(page: Page, url: string, status = 200): Promise<void> {
  const res = await page.goto(url);
  expect(res?.status(), url).toBe(status);
  await expectAccessible(page);
}

describe.skipIf(!chromiumAvailable())('web UI: repositories', () => {
  beforeAll(async () => {
    const keys = ws.dir('keys');
    [aliceKey, aliceUnverifiedKey, bobKey] = await Promise.all([sshKeyPair(keys), sshKeyPair(keys), sshKeyPair(keys, 'ecdsa')]);
    gpg = new Gpg(ws.dir('gnupg'));
    suite = await sharedTestSuite();
    api = http(suite);
    git = gitRunner(ws.dir('home'));
    const admin = await suite.createAdmin();
    [alice, bob] = await Promise.all([createUser(suite, admin, uniqueName('alice')), createUser(suite, admin, uniqueName('bob'))]);
    aliceGpg = await gpg.generate(`${alice.username} <${emailOf(alice)}>`, 'ed25519', { signingSubkey: true });
    await addSshKey(alice, aliceKey, true);
    await addSshKey(alice, aliceUnverifiedKey, false);
    await addSshKey(bob, bobKey, true);
    const gpgAdded = await api.post('/user/gpg_keys', { basic: alice, body: { armored_public_key: aliceGpg.armoredPublic } });
    expect(gpgAdded.status, gpgAdded.text).toBe(201);
    for (const [name, priv] of [[repo, false], [secretRepo, true]] as const) {
      const made = await api.post('/user/repos', { basic: alice, body: { name, private: priv, description: `the ${name} repository` } });
      expect(made.status, made.text).toBe(201);
    }

    work = ws.dir('work');
    await git.ok(['init', '-q', '-b', 'main', work]);
    writeFiles(work, {
      'README.md': README,
      'docs/guide.md': '# Guide\n',
      'src/main.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
    });
    sha.unsigned = await commit('initial import', alice);
    writeFiles(work, { 'src/main.ts': 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n' });
    sha.ssh = await commit('say hi (ssh-signed)', alice, { ssh: aliceKey });
    sha.gpg = await commit('gpg-signed', alice, { gpg: aliceGpg.keyId });
    sha.unverified = await commit('signed with an unverified key', alice, { ssh: aliceUnverifiedKey });
    sha.bob = await commit('bob signs his own', bob, { ssh: bobKey });
    await git.ok(['tag', 'v1', sha.ssh], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: work });
    writeFiles(work, { 'feature.txt': 'only on the feature branch\n', 'README.md': '# Feature demo\n' });
    sha.feature = await commit('feature work', alice);
    await git.ok(['checkout', '-q', 'main'], { cwd: work });
    const creds = { username: alice.username, secret: alice.password };
    await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, alice.username, repo, creds), 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], { cwd: work });
    await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, alice.username, secretRepo, creds), 'main'], { cwd: work });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
    ws.cleanup();
  });

  it('explores repositories, users and organizations, and shows a profile', async () => {
    await onPage('explore', null, async (page) => {
      // By name: other test files add users to the same instance, and the first page shows the newest.
      await visit(page, `/explore/users?q=${alice.username}`);
      expect(await page.getByRole('link', { name: alice.username, exact: true }).count()).toBe(1);
      await visit(page, '/explore/organizations');
      await visit(page, `/explore/repos?q=${repo}`);
      const listed = page.getByRole('link', { name: `${alice.username}/${repo}` });
      expect(await listed.count()).toBe(1);
      // The private repository is not listed for a visitor, exactly as `/repos/search` leaves it out.
      await visit(page, `/explore/repos?q=${secretRepo}`);
      expect(await page.getByText(`${alice.username}/${secretRepo}`).count()).toBe(0);
      await visit(page, `/${alice.username}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(alice.username);
      expect(await page.getByRole('link', { name: `${alice.username}/${repo}` }).count()).toBe(1);
      expect(await page.getByText(`${alice.username}/${secretRepo}`).count()).toBe(0);
    });
  });

  it('browses a repository: README from Markdown (raw HTML escaped), tree, clone URLs, and a highlighted file with its raw link', async () => {
    await onPage('browse', null, async (page) => {
      await visit(page, `/${alice.username}/${repo}`);
      const readme = page.locator('.readme .markdown');
      expect(await readme.getByRole('heading', { level: 1, name: 'Web demo' }).count()).toBe(1);
      expect(await readme.locator('strong').textContent()).toBe('demo');
      expect(await readme.getByRole('link', { name: 'the guide' }).getAttribute('href'))
        .toBe(`/${alice.username}/${repo}/src/branch/main/docs/guide.md`);
      expect(await readme.textContent()).toContain('<script>window.pwned = true</script>');
      expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
      // The clone URLs are the repository's own (HTTP and SSH), as the API gives them.
      const apiRepo = (await api.get(`/repos/${alice.username}/${repo}`)).body;
      expect(apiRepo.ssh_url).toMatch(/^ssh:\/\//);
      expect(await page.locator('.clone input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)))
        .toEqual([apiRepo.clone_url, apiRepo.ssh_url]);
      await page.getByRole('link', { name: 'src/' }).click();
      await page.waitForURL(`**/${repo}/src/branch/main/src`);
      await expectAccessible(page);
      await page.getByRole('link', { name: 'main.ts' }).click();
      await page.waitForURL(`**/src/branch/main/src/main.ts`);
      expect(await page.locator('table.code tr').count()).toBe(3);
      expect(await page.locator('table.code .hljs-keyword').first().textContent()).toBe('export');
      expect(await page.locator('#L2 .lc').textContent()).toBe('  return `hi ${name}`;');
      const raw = await page.getByRole('link', { name: 'Raw' }).getAttribute('href');
      expect(raw).toBe(`/${alice.username}/${repo}/raw/branch/main/src/main.ts`);
      const rawRes = await page.request.get(raw!);
      expect(rawRes.status()).toBe(200);
      expect(rawRes.headers()['x-content-type-options']).toBe('nosniff');
      expect(await rawRes.text()).toContain('return `hi ${name}`;');
    });
  });

  it('switches between branches and tags', async () => {
    await onPage('ref-switcher', null, async (page) => {
      await visit(page, `/${alice.username}/${repo}`);
      expect(await page.getByRole('link', { name: 'feature.txt' }).count()).toBe(0);
      await page.locator('.ref-switcher summary').click();
      await page.locator('.ref-panel').getByRole('link', { name: 'feature/x' }).click();
      await page.waitForURL(`**/src/branch/feature/x`);
      expect(await page.getByRole('link', { name: 'feature.txt' }).count()).toBe(1);
      // Each ref shows its own README (rendered READMEs are cached by blob, so a changed one must not show the old).
      expect(await page.locator('.readme .markdown h1').textContent()).toBe('Feature demo');
      await visit(page, `/${alice.username}/${repo}`);
      expect(await page.locator('.readme .markdown h1').textContent()).toBe('Web demo');
      await visit(page, `/${alice.username}/${repo}/src/branch/feature/x`);
      expect(await page.locator('.readme .markdown h1').textContent()).toBe('Feature demo');
      await expectAccessible(page);
      // At tag v1 (the ssh-signed commit) the file still says "hi"; the tag's file view is reachable by path.
      await visit(page, `/${alice.username}/${repo}/src/tag/v1/src/main.ts`);
      expect(await page.locator('#L2 .lc').textContent()).toBe('  return `hi ${name}`;');
      await visit(page, `/${alice.username}/${repo}/src/commit/${sha.unsigned}/src/main.ts`);
      expect(await page.locator('#L2 .lc').textContent()).toBe('  return `hello ${name}`;');
      await visit(page, `/${alice.username}/${repo}/src/branch/no-such-branch`, 404);
    });
  });

  it('lists commits with a verification badge each, as the API verifies them', async () => {
    await onPage('commits', alice, async (page) => {
      await visit(page, `/${alice.username}/${repo}/commits/branch/main`);
      const row = (id: string) => page.locator('.commit-row', { has: page.locator(`a[href$="/commit/${id}"]`) });
      expect(await row(sha.ssh).locator('.badge').textContent()).toBe('Trusted');
      expect(await row(sha.gpg).locator('.badge').textContent()).toBe('Trusted');
      expect(await row(sha.bob).locator('.badge').textContent()).toBe('Untrusted');
      expect(await row(sha.unverified).locator('.badge').textContent()).toBe('Unverified');
      expect(await row(sha.unsigned).locator('.badge').count()).toBe(0);
      expect(await row(sha.ssh).locator('.badge').getAttribute('title')).toContain(fingerprint(aliceKey));
      // The same statuses the API gives the same user.
      const listed = await api.get(`/repos/${alice.username}/${repo}/commits?sha=main&limit=50`, { basic: alice });
      const status = new Map(listed.body.map((c: { sha: string; commit: { verification: { trust_status: string } } }) => [c.sha, c.commit.verification.trust_status]));
      expect([status.get(sha.ssh), status.get(sha.bob)]).toEqual(['trusted', 'untrusted']);
    });
  });

  it('shows a signed commit with its signer, key and diff', async () => {
    await onPage('commit-ssh', alice, async (page) => {
      await visit(page, `/${alice.username}/${repo}/commit/${sha.ssh}`);
      const sig = page.locator('.signature');
      expect(await sig.locator('strong').textContent()).toBe('Trusted');
      expect(await sig.locator('.signer').textContent()).toContain(alice.username);
      expect(await sig.locator('.key').textContent()).toBe(fingerprint(aliceKey));
      const diff = page.locator('.diff-file', { hasText: 'src/main.ts' });
      expect(await diff.locator('tr.del .lc').textContent()).toContain('return `hello ${name}`;');
      expect(await diff.locator('tr.add .lc').textContent()).toContain('return `hi ${name}`;');
    });
    await onPage('commit-gpg', alice, async (page) => {
      await visit(page, `/${alice.username}/${repo}/commit/${sha.gpg}`);
      expect(await page.locator('.signature .key').textContent()).toBe(aliceGpg.subkeyIds[1]);
      await visit(page, `/${alice.username}/${repo}/commit/${sha.bob}`);
      expect(await page.locator('.signature strong').textContent()).toBe('Untrusted');
      expect(await page.locator('.signature .key').textContent()).toBe(fingerprint(bobKey));
    });
  });

  it('keeps private repositories hidden from visitors and shows them on the owner\'s dashboard', async () => {
    await onPage('private-hidden', null, async (page) => {
      await visit(page, `/${alice.username}/${secretRepo}`, 404);
      await visit(page, `/${alice.username}/${secretRepo}/commits/branch/main`, 404);
      expect((await page.request.get(`/${alice.username}/${secretRepo}/raw/branch/main/README.md`)).status()).toBe(404);
    });
    await onPage('dashboard', alice, async (page) => {
      await visit(page, '/');
      expect(await page.getByRole('heading', { level: 1, name: 'Dashboard' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: `${alice.username}/${secretRepo}` }).count()).toBe(1);
      await page.getByRole('link', { name: `${alice.username}/${secretRepo}` }).click();
      await page.waitForURL(`**/${alice.username}/${secretRepo}`);
      expect(await page.locator('.repo-title .tag').textContent()).toBe('Private');
      await expectAccessible(page);
    });
  });
});
