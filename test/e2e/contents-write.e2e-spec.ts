/**
 * The contents write API end to end (Gitea's `tests/integration/api_repo_file_{create,update,delete}_test.go` and
 * `api_repo_files_change_test.go`, adapted): the whole suite, real HTTP calls, and what they did checked with a real
 * `git clone` — the commits, their author, committer, dates, message and sign-off — plus the consequences of a branch
 * moving (a push webhook delivery, pull requests following their branches and their merge checks).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { gitRunner, httpCloneUrl, workspace, type Git } from '../support/git.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/wait.js';

let suite: TestSuite;
let api: HttpClient;
let alice: Account;
let bob: Account;
let aliceToken: string;
let aliceReadToken: string;
let bobToken: string;
let git: Git;
let receiver: WebhookReceiver;
const ws = workspace('cairn-e2e-contents-write-');
const repo = uniqueName('files');

const b64 = (text: string) => Buffer.from(text).toString('base64');
/** The blob id git gives these bytes (what `sha` must name). */
const blobId = (text: string) => {
  const bytes = Buffer.from(text);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};
const r = (path = '', name = repo, owner = () => alice.username) => `/repos/${owner()}/${name}${path}`;

/** A fresh clone of a branch; resolves with its folder. */
async function clone(name: string, branch = 'main'): Promise<string> {
  const dir = ws.dir(uniqueName('clone'));
  const url = httpCloneUrl(suite.baseUrl, alice.username, name, { username: alice.username, secret: aliceToken });
  await git.ok(['clone', '-q', '--branch', branch, url, dir]);
  return dir;
}

/** One field per line of `git log -1` at the clone's HEAD. */
async function headCommit(dir: string, rev = 'HEAD') {
  const out = await git.ok(['log', '-1', '--format=%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%P%x00%B', rev], { cwd: dir });
  const [sha, an, ae, ad, cn, ce, cd, parents, message] = out.split('\0');
  return { sha, author: { name: an, email: ae, date: ad }, committer: { name: cn, email: ce, date: cd }, parents: parents.split(' ').filter(Boolean), message };
}

async function createFile(path: string, text: string, extra: Record<string, unknown> = {}, name = repo) {
  const res = await api.post(r(`/contents/${path}`, name), { token: aliceToken, body: { content: b64(text), ...extra } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  suite = await sharedTestSuite();
  api = http(suite);
  const admin = await suite.createAdmin();
  alice = await createUser(suite, admin, uniqueName('alice'), { full_name: 'Alice Liddell' });
  bob = await createUser(suite, admin, uniqueName('bob'));
  aliceToken = await createToken(suite, alice, ['write:repository', 'write:user']);
  aliceReadToken = await createToken(suite, alice, ['read:repository']);
  bobToken = await createToken(suite, bob, ['write:repository']);
  git = gitRunner(ws.dir('home'));
  const made = await api.post('/user/repos', { token: aliceToken, body: { name: repo, auto_init: true, default_branch: 'main' } });
  expect(made.status, made.text).toBe(201);
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  await receiver?.close();
  ws.cleanup();
});

describe('POST /repos/{owner}/{repo}/contents/{filepath} (create)', () => {
  it('commits the file on the default branch as the caller, with Gitea’s default message', async () => {
    const body = await createFile('docs/new file.txt', 'hello\n');
    expect(body.content).toMatchObject({
      name: 'new file.txt',
      path: 'docs/new file.txt',
      sha: blobId('hello\n'),
      type: 'file',
      size: 6,
      encoding: 'base64',
      content: b64('hello\n'),
    });
    expect(body.content.url).toMatch(new RegExp(`/api/v1/repos/${alice.username}/${repo}/contents/docs/new%20file\\.txt\\?ref=main$`));
    expect(body.content.last_commit_sha).toBe(body.commit.sha);
    expect(body.commit.message).toBe('Add docs/new file.txt\n');
    expect(body.commit.html_url).toMatch(new RegExp(`/${alice.username}/${repo}/commit/${body.commit.sha}$`));
    // The caller's identity as merges use it: full name, and the no-reply address (identity-service hides e-mails).
    const doer = { name: 'Alice Liddell', email: `${alice.username}@noreply.${new URL(body.content.url).hostname}` };
    expect(body.commit.author).toMatchObject(doer);
    expect(body.commit.committer).toMatchObject(doer);
    expect(body.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '', trust_status: '' });

    const dir = await clone(repo);
    const head = await headCommit(dir);
    expect(head.sha).toBe(body.commit.sha);
    expect(head.message).toBe('Add docs/new file.txt'); // (git.ok trims the output's final newline)
    expect(head.author).toMatchObject(doer);
    expect(head.committer).toMatchObject(doer);
    expect(body.commit.parents.map((p: { sha: string }) => p.sha)).toEqual(head.parents);
    expect(await git.ok(['show', 'HEAD:docs/new file.txt'], { cwd: dir })).toBe('hello');
  });

  it('takes the author, committer, their dates, the message and a sign-off', async () => {
    const body = await createFile('signed.txt', 'x\n', {
      message: '  Custom message  ',
      author: { name: 'John Doe', email: 'johndoe@example.com' },
      committer: { name: 'Anne Doe', email: 'annedoe@example.com' },
      dates: { author: '2016-01-01T00:00:00+02:00', committer: '2017-03-04T05:06:07Z' },
      signoff: true,
    });
    const expected = 'Custom message\n\nSigned-off-by: Anne Doe <annedoe@example.com>\n';
    expect(body.commit.message).toBe(expected);
    expect(body.commit.author).toEqual({ name: 'John Doe', email: 'johndoe@example.com', date: '2015-12-31T22:00:00Z' });
    expect(body.commit.committer).toEqual({ name: 'Anne Doe', email: 'annedoe@example.com', date: '2017-03-04T05:06:07Z' });
    const head = await headCommit(await clone(repo));
    expect(head.sha).toBe(body.commit.sha);
    expect(head.message).toBe(expected.trimEnd());
    expect(head.author).toEqual({ name: 'John Doe', email: 'johndoe@example.com', date: '2016-01-01T00:00:00+02:00' });
    expect(head.committer).toEqual({ name: 'Anne Doe', email: 'annedoe@example.com', date: '2017-03-04T05:06:07+00:00' });
  });

  it('uses the one identity given for both (Gitea: the author alone is the committer too)', async () => {
    const body = await createFile('author-only.txt', 'y\n', { author: { name: 'Solo', email: 'solo@example.com' } });
    expect(body.commit.author).toMatchObject({ name: 'Solo', email: 'solo@example.com' });
    expect(body.commit.committer).toMatchObject({ name: 'Solo', email: 'solo@example.com' });
  });

  it('refuses a file that exists, a path through a file, bad base64 and an invalid date (422), and a missing branch (404)', async () => {
    await createFile('exists.txt', 'a\n');
    const again = await api.post(r('/contents/exists.txt'), { token: aliceToken, body: { content: b64('b\n') } });
    expect(again.status, again.text).toBe(422);
    expect(again.body.message).toBe('repository file already exists [path: exists.txt]');
    const through = await api.post(r('/contents/exists.txt/inner.txt'), { token: aliceToken, body: { content: b64('b\n') } });
    expect(through.status, through.text).toBe(422);
    expect(through.body.message).toContain('a file exists where you’re trying to create a subdirectory [path: exists.txt]');
    const onDir = await api.post(r('/contents/docs'), { token: aliceToken, body: { content: b64('b\n') } });
    expect(onDir.status, onDir.text).toBe(422);
    const badContent = await api.post(r('/contents/bad.txt'), { token: aliceToken, body: { content: 'not base64!' } });
    expect(badContent.status, badContent.text).toBe(422);
    const badDate = await api.post(r('/contents/bad.txt'), { token: aliceToken, body: { content: b64('x'), dates: { author: 'yesterday' } } });
    expect(badDate.status, badDate.text).toBe(422);
    const noBranch = await api.post(r('/contents/bad.txt'), { token: aliceToken, body: { content: b64('x'), branch: 'nope' } });
    expect(noBranch.status, noBranch.text).toBe(404);
    expect((await api.get(r('/contents/bad.txt'), { token: aliceToken })).status).toBe(404);
  });

  it('refuses paths with `..`, `.git` or control characters before anything is written (422)', async () => {
    const before = await api.get(r('/branches/main'), { token: aliceToken });
    for (const path of ['../x.txt', 'a/../../x.txt', '.git/config', 'a/.GIT/hooks/pre-receive', 'a\u0000b', 'a\nb', '/abs.txt', 'a//b', 'x'.repeat(4097), 'GIT~1/config', '.git./x', 'a/.git /x', 'a\\b']) {
      const res = await api.post(r('/contents'), { token: aliceToken, body: { files: [{ operation: 'create', path, content: b64('x') }] } });
      expect(res.status, `${JSON.stringify(path).slice(0, 40)}: ${res.text.slice(0, 200)}`).toBe(422);
    }
    const after = await api.get(r('/branches/main'), { token: aliceToken });
    expect(after.body.commit.id).toBe(before.body.commit.id);
  });

  it('creates a new branch from `branch` with `new_branch`, and refuses one that exists (422)', async () => {
    const body = await createFile('on-branch.txt', 'b\n', { new_branch: 'feature/api' });
    expect(body.content.html_url).toContain('/src/branch/feature/api/on-branch.txt');
    const dir = await clone(repo, 'feature/api');
    expect(await git.ok(['show', 'HEAD:on-branch.txt'], { cwd: dir })).toBe('b');
    expect((await api.get(r('/contents/on-branch.txt'), { token: aliceToken })).status).toBe(404);
    const dup = await api.post(r('/contents/other.txt'), { token: aliceToken, body: { content: b64('x'), new_branch: 'feature/api' } });
    expect(dup.status, dup.text).toBe(422);
    expect(dup.body.message).toBe('branch already exists [name: feature/api]');
  });
});

describe('PUT /repos/{owner}/{repo}/contents/{filepath} (update)', () => {
  it('updates with the current sha (200, "Update …"), and renames with from_path', async () => {
    const made = await createFile('up/file.txt', 'one\n');
    const res = await api.put(r('/contents/up/file.txt'), { token: aliceToken, body: { content: b64('two\n'), sha: made.content.sha } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content.sha).toBe(blobId('two\n'));
    expect(res.body.commit.message).toBe('Update up/file.txt\n');

    const moved = await api.put(r('/contents/rename/up/file.txt'), {
      token: aliceToken,
      body: { content: b64('two\n'), sha: res.body.content.sha, from_path: 'up/file.txt' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.content.path).toBe('rename/up/file.txt');
    const dir = await clone(repo);
    expect(await git.ok(['show', 'HEAD:rename/up/file.txt'], { cwd: dir })).toBe('two');
    expect((await git.try(['cat-file', '-e', 'HEAD:up/file.txt'], { cwd: dir })).code).not.toBe(0);
    const stat = await git.ok(['show', '--format=', '--name-status', '-M', 'HEAD'], { cwd: dir });
    expect(stat).toMatch(/^R\d+\tup\/file.txt\trename\/up\/file.txt$/m);
  });

  it('answers a stale sha (an earlier version of the file) with 409, a wrong sha with 422 (Gitea’s "sha does not match"), a missing file with 404', async () => {
    const made = await createFile('stale.txt', 'v1\n');
    const v2 = await api.put(r('/contents/stale.txt'), { token: aliceToken, body: { content: b64('v2\n'), sha: made.content.sha } });
    expect(v2.status, v2.text).toBe(200);
    const stale = await api.put(r('/contents/stale.txt'), { token: aliceToken, body: { content: b64('v3\n'), sha: made.content.sha } });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.message).toBe(`file has changed since sha ${made.content.sha} [path: stale.txt, current sha: ${v2.body.content.sha}]`);
    // A well-formed sha that names no blob of the repository is not stale but wrong.
    const unknown = await api.put(r('/contents/stale.txt'), { token: aliceToken, body: { content: b64('v3\n'), sha: 'f'.repeat(40) } });
    expect(unknown.status, unknown.text).toBe(422);
    const wrong = await api.put(r('/contents/stale.txt'), { token: aliceToken, body: { content: b64('v3\n'), sha: 'badsha' } });
    expect(wrong.status, wrong.text).toBe(422);
    expect(wrong.body.message).toBe(`sha does not match [given: badsha, expected: ${v2.body.content.sha}]`);
    const missing = await api.put(r('/contents/nowhere.txt'), { token: aliceToken, body: { content: b64('x'), sha: made.content.sha } });
    expect(missing.status, missing.text).toBe(404);
    expect((await api.get(r('/contents/stale.txt'), { token: aliceToken })).body.content).toBe(b64('v2\n'));
  });

  it('without a sha: creates a new file (201), refuses to overwrite an existing one (422)', async () => {
    const res = await api.put(r('/contents/put-new.txt'), { token: aliceToken, body: { content: b64('new\n') } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.commit.message).toBe('Add put-new.txt\n');
    const again = await api.put(r('/contents/put-new.txt'), { token: aliceToken, body: { content: b64('other\n') } });
    expect(again.status, again.text).toBe(422);
  });
});

describe('DELETE /repos/{owner}/{repo}/contents/{filepath}', () => {
  it('deletes with the sha (200, content null), refuses a wrong sha (422), a missing file (404) and no sha (422)', async () => {
    const made = await createFile('gone.txt', 'bye\n');
    const wrong = await api.delete(r('/contents/gone.txt'), { token: aliceToken, body: { sha: blobId('other') } });
    expect(wrong.status, wrong.text).toBe(422);
    const noSha = await api.delete(r('/contents/gone.txt'), { token: aliceToken, body: {} });
    expect(noSha.status, noSha.text).toBe(422);
    const res = await api.delete(r('/contents/gone.txt'), { token: aliceToken, body: { sha: made.content.sha } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content).toBeNull();
    expect(res.body.commit.message).toBe('Delete gone.txt\n');
    const dir = await clone(repo);
    expect((await headCommit(dir)).sha).toBe(res.body.commit.sha);
    expect((await git.try(['cat-file', '-e', 'HEAD:gone.txt'], { cwd: dir })).code).not.toBe(0);
    const missing = await api.delete(r('/contents/gone.txt'), { token: aliceToken, body: { sha: made.content.sha } });
    expect(missing.status, missing.text).toBe(404);
  });
});

describe('POST /repos/{owner}/{repo}/contents (several files, one commit)', () => {
  it('creates, updates, renames and deletes in one commit', async () => {
    const a = await createFile('multi/a.txt', 'a\n');
    const b = await createFile('multi/b.txt', 'b\n');
    const c = await createFile('multi/c.txt', 'c\n');
    const res = await api.post(r('/contents'), {
      token: aliceToken,
      body: {
        files: [
          { operation: 'create', path: 'multi/new.txt', content: b64('new\n') },
          { operation: 'update', path: 'multi/a.txt', content: b64('a2\n'), sha: a.content.sha },
          { operation: 'rename', path: 'multi/b-renamed.txt', from_path: 'multi/b.txt', sha: b.content.sha },
          { operation: 'delete', path: 'multi/c.txt', sha: c.content.sha },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.files.map((f: { path: string } | null) => f?.path ?? null)).toEqual(['multi/new.txt', 'multi/a.txt', 'multi/b-renamed.txt', null]);
    expect(res.body.files[2].sha).toBe(blobId('b\n'));
    expect(res.body.commit.message).toBe('Add multi/new.txt\nUpdate multi/a.txt, multi/b-renamed.txt\nDelete multi/c.txt\n');
    const dir = await clone(repo);
    expect((await headCommit(dir)).parents).toEqual([c.commit.sha]);
    expect(await git.ok(['ls-tree', '--name-only', 'HEAD', 'multi/'], { cwd: dir })).toBe('multi/a.txt\nmulti/b-renamed.txt\nmulti/new.txt');
  });

  it('writes nothing when one file of the change is refused', async () => {
    const before = (await api.get(r('/branches/main'), { token: aliceToken })).body.commit.id;
    const res = await api.post(r('/contents'), {
      token: aliceToken,
      body: { files: [{ operation: 'create', path: 'fine.txt', content: b64('x') }, { operation: 'update', path: 'missing.txt', content: b64('x'), sha: blobId('x') }] },
    });
    expect(res.status, res.text).toBe(404);
    expect((await api.get(r('/branches/main'), { token: aliceToken })).body.commit.id).toBe(before);
    const empty = await api.post(r('/contents'), { token: aliceToken, body: { files: [] } });
    expect(empty.status, empty.text).toBe(422);
  });
});

describe('concurrent writes to one branch', () => {
  it('all land, one after the other: a write that loses the race to move the branch starts again from the new tip', async () => {
    const names = ['c1', 'c2', 'c3', 'c4'].map((n) => `race/${n}.txt`);
    const answers = await Promise.all(names.map((n) => api.post(r(`/contents/${n}`), { token: aliceToken, body: { content: b64(`${n}\n`) } })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const dir = await clone(repo);
    expect(await git.ok(['ls-tree', '--name-only', 'HEAD', 'race/'], { cwd: dir })).toBe(names.join('\n'));
    const shas = answers.map((a) => a.body.commit.sha);
    const lastFour = (await git.ok(['rev-list', '--max-count=4', 'HEAD'], { cwd: dir })).split('\n');
    expect([...lastFour].sort()).toEqual([...shas].sort());
  });

  it('a file changed by someone else meanwhile fails its sha check (409, stale), never overwriting their change', async () => {
    const made = await createFile('race/shared.txt', 'v1\n');
    const both = await Promise.all(
      ['mine\n', 'theirs\n'].map((t) => api.put(r('/contents/race/shared.txt'), { token: aliceToken, body: { content: b64(t), sha: made.content.sha } })),
    );
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = both.find((a) => a.status === 200)!;
    expect((await api.get(r('/contents/race/shared.txt'), { token: aliceToken })).body.sha).toBe(winner.body.content.sha);
  });
});

describe('who may write', () => {
  it('anonymous 401, no write access 403, a private repository 404, a read-only token 403', async () => {
    const body = { content: b64('x') };
    expect((await api.post(r('/contents/anon.txt'), { body })).status).toBe(401);
    const stranger = await api.post(r('/contents/bob.txt'), { token: bobToken, body });
    expect(stranger.status, stranger.text).toBe(403);
    const readOnly = await api.post(r('/contents/ro.txt'), { token: aliceReadToken, body });
    expect(readOnly.status, readOnly.text).toBe(403);
    const secret = uniqueName('secret');
    expect((await api.post('/user/repos', { token: aliceToken, body: { name: secret, private: true, auto_init: true } })).status).toBe(201);
    expect((await api.post(r('/contents/bob.txt', secret), { token: bobToken, body })).status).toBe(404);
    expect((await api.post(r('/contents/anon.txt', secret), { body })).status).toBe(404);
    expect((await api.post(r('/contents/mine.txt', secret), { token: aliceToken, body })).status).toBe(201);
  });

  it('a collaborator with write access may write (the commit is theirs); one with read access may not (403)', async () => {
    const name = uniqueName('shared');
    expect((await api.post('/user/repos', { token: aliceToken, body: { name, auto_init: true } })).status).toBe(201);
    const collaborator = (permission: string) =>
      api.put(r(`/collaborators/${bob.username}`, name), { token: aliceToken, body: { permission } });
    expect((await collaborator('read')).status).toBe(204);
    expect((await api.post(r('/contents/bob.txt', name), { token: bobToken, body: { content: b64('b') } })).status).toBe(403);
    expect((await collaborator('write')).status).toBe(204);
    const res = await api.post(r('/contents/bob.txt', name), { token: bobToken, body: { content: b64('b') } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.commit.author.name).toBe(bob.username);
  });

  it('an archived repository is refused with 423', async () => {
    const name = uniqueName('archived');
    expect((await api.post('/user/repos', { token: aliceToken, body: { name, auto_init: true } })).status).toBe(201);
    expect((await api.patch(r('', name), { token: aliceToken, body: { archived: true } })).status).toBe(200);
    const res = await api.post(r('/contents/x.txt', name), { token: aliceToken, body: { content: b64('x') } });
    expect(res.status, res.text).toBe(423);
  });
});

describe('an empty repository', () => {
  it('gets its first commit and branch from a created file', async () => {
    const name = uniqueName('empty');
    expect((await api.post('/user/repos', { token: aliceToken, body: { name } })).status).toBe(201);
    const del = await api.delete(r('/contents/none.txt', name), { token: aliceToken, body: { sha: blobId('x') } });
    expect(del.status, del.text).toBe(404);
    const body = await createFile('first.txt', 'first\n', {}, name);
    expect(body.commit.parents).toEqual([]);
    const meta = await api.get(r('', name), { token: aliceToken });
    expect(meta.body).toMatchObject({ empty: false, default_branch: 'main' });
    const dir = await clone(name);
    expect((await headCommit(dir)).sha).toBe(body.commit.sha);
    expect(await git.ok(['show', 'HEAD:first.txt'], { cwd: dir })).toBe('first');
  });
});

describe('what follows a file change', () => {
  it('delivers a push webhook for the new commit', async () => {
    const hook = await api.post(r('/hooks'), {
      token: aliceToken,
      body: { type: 'gitea', active: true, events: ['push'], config: { url: `${receiver.url}/push`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
    const body = await createFile('hooked.txt', 'h\n', { message: 'hooked change' });
    const delivery = await waitFor(
      () => receiver.received.find((d) => d.path === '/push' && d.json?.after === body.commit.sha),
      'the push delivery of the file change',
    );
    expect(delivery.event).toBe('push');
    expect(delivery.json.ref).toBe('refs/heads/main');
    expect(delivery.json.commits.map((c: { message: string }) => c.message)).toEqual(['hooked change\n']);
    expect(delivery.json.pusher.login).toBe(alice.username);
  });

  it('moves pull requests with their branches and re-checks them (head moved, then base moved into a conflict)', async () => {
    await createFile('pr/conflict.txt', 'base\n');
    const onBranch = await api.get(r('/contents/pr/conflict.txt'), { token: aliceToken });
    const head = await api.put(r('/contents/pr/conflict.txt'), {
      token: aliceToken,
      body: { content: b64('from the branch\n'), sha: onBranch.body.sha, new_branch: 'topic' },
    });
    expect(head.status, head.text).toBe(200);
    const pr = await api.post(r('/pulls'), { token: aliceToken, body: { head: 'topic', base: 'main', title: 'topic' } });
    expect(pr.status, pr.text).toBe(201);
    const get = () => api.get(r(`/pulls/${pr.body.number}`), { token: aliceToken });
    await waitFor(async () => (await get()).body.mergeable === true, 'the pull request to be mergeable');

    // The head branch moves through the API: the pull request follows it.
    const onTopic = await api.post(r('/contents/pr/extra.txt'), { token: aliceToken, body: { content: b64('e\n'), branch: 'topic' } });
    expect(onTopic.status, onTopic.text).toBe(201);
    await waitFor(async () => (await get()).body.head.sha === onTopic.body.commit.sha, 'the pull request head to follow the branch');

    // The base branch moves into a conflict: the check that follows says so.
    const base = await api.put(r('/contents/pr/conflict.txt'), {
      token: aliceToken,
      body: { content: b64('from main\n'), sha: onBranch.body.sha },
    });
    expect(base.status, base.text).toBe(200);
    const conflicted = await waitFor(async () => {
      const p = (await get()).body;
      return p.base.sha === base.body.commit.sha && p.mergeable_state === 'conflict' ? p : null;
    }, 'the pull request to be re-checked against the new base');
    expect(conflicted.mergeable).toBe(false);
  });
});
