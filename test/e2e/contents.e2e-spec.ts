/**
 * The git read APIs end to end (issue 3) on a repository whose history was pushed with the real `git`: contents
 * (file, directory, root, symlink, submodule, `?ref=` as branch, tag and commit), raw files (inline and streamed),
 * batch file contents (POST and its GET twin: request order, nulls for missing, traversal, `.git` and absolute paths,
 * bad bodies), single commits, branches — each checked against Gitea's shapes — and hostile refs and paths, which
 * must end in clean 4xx answers and never run anything.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract, assertMatchesDefinition } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { commitAll, gitRunner, httpCloneUrl, workspace, writeFiles, type Git } from '../support/git.js';
import { expectApiError, expectClientError, scopeMessage } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-contents-');
let git: Git;
let owner: Account;
let reader: Account;
let stranger: Account;
const repo = uniqueName('tree');
let base: string;
let apiUrl: string;
let htmlUrl: string;
/** Commits of main, oldest first; `feature` adds one on top of c3; `release/1.0` points at c2; tag `v1` (annotated) too. */
const c: Record<'c1' | 'c2' | 'c3' | 'feature', string> = { c1: '', c2: '', c3: '', feature: '' };
const README = Buffer.from('# tree\n\nupdated\n');
const BIN = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13, 0x89, 0x50, 0x4e, 0x47]);
/** Over the 512 KiB raw inline limit and the 640 KiB base64 bus budget: both routes stream it. */
const BIG = randomBytes(700 * 1024);
let blobSha: (rev: string) => Promise<string>;
/** The submodule's commit: one of another repository (not in this one), as in real life. */
const SUBMODULE_COMMIT = 'b1e5e4d3c2b1a09f8e7d6c5b4a392817161514ab';
const MARKER = () => path.join(ws.root, 'pwned');

const day = (iso: string) => Math.floor(Date.parse(iso) / 1000);

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  [owner, reader, stranger] = await Promise.all(
    ['owner', 'reader', 'stranger'].map((s) => createUser(suite, admin, uniqueName(s))),
  );
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo, private: true } })).status).toBe(201);
  expect((await api.put(`/repos/${owner.username}/${repo}/collaborators/${reader.username}`, { basic: owner, body: { permission: 'read' } })).status).toBe(204);
  base = `/repos/${owner.username}/${repo}`;
  apiUrl = `${suite.rootUrl}api/v1${base}`;
  htmlUrl = `${suite.rootUrl}${owner.username}/${repo}`;

  const dir = ws.dir('work');
  await git.ok(['init', '-q', '-b', 'main', dir]);
  c.c1 = await commitAll(git, dir, { 'README.md': '# tree\n', 'docs/guide.md': 'guide v1\n', 'docs/deep/nested.txt': 'deep\n' }, 'first', day('2024-01-01T00:00:00Z'));
  c.c2 = await commitAll(git, dir, { 'docs/guide.md': 'guide v2\n' }, 'second', day('2024-02-01T00:00:00Z'));
  await git.ok(['tag', '-a', '-m', 'version 1', 'v1'], { cwd: dir, env: { GIT_COMMITTER_DATE: '@1706745600 +0000' } });
  await git.ok(['branch', 'release/1.0'], { cwd: dir });
  symlinkSync('README.md', path.join(dir, 'link'));
  writeFiles(dir, {
      'README.md': README,
      'empty.txt': '',
      'bin.dat': BIN,
      'big.bin': BIG,
      '.gitmodules': '[submodule "sub"]\n\tpath = sub\n\turl = https://example.com/sub.git\n',
      'dir with space/file name.txt': 'spaced\n',
      'ünï.txt': 'unicode\n',
  });
  await git.ok(['add', '--all'], { cwd: dir });
  // A gitlink, as `git submodule add` leaves it (its commit lives in another repository).
  await git.ok(['update-index', '--add', '--cacheinfo', `160000,${SUBMODULE_COMMIT},sub`], { cwd: dir });
  const third = `@${day('2024-03-01T00:00:00Z')} +0000`;
  await git.ok(['commit', '-q', '-m', 'third'], { cwd: dir, env: { GIT_AUTHOR_DATE: third, GIT_COMMITTER_DATE: third } });
  c.c3 = await git.ok(['rev-parse', 'HEAD'], { cwd: dir });
  await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: dir });
  c.feature = await commitAll(git, dir, { 'feature.txt': 'feature\n' }, 'feature work', day('2024-03-15T00:00:00Z'));
  await git.ok(['checkout', '-q', 'main'], { cwd: dir });
  const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password });
  await git.ok(['push', '-q', url, 'main', 'feature', 'release/1.0', 'v1'], { cwd: dir });
  blobSha = (rev) => git.ok(['rev-parse', rev], { cwd: dir });
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

const decode = (content: string) => Buffer.from(content, 'base64');

/** A GET with the path sent byte for byte (no client-side resolution of `.` and `..` segments). */
function rawGet(pathAndQuery: string, who: Account): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(suite.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: pathAndQuery, headers: { authorization: who.basic } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every path under `…/<route>/` answers 404 with Gitea's error body (all of them checked, then compared at once). */
async function expectAll404(route: string, paths: string[]): Promise<void> {
  const answers = await Promise.all(paths.map((p) => api.get(`${base}/${route}/${p}`, { basic: reader })));
  const statuses = Object.fromEntries(paths.map((p, i) => [p, answers[i].status]));
  expect(statuses).toEqual(Object.fromEntries(paths.map((p) => [p, 404])));
  for (const res of answers) expectApiError(res, 404);
}

/**
 * Fields of Gitea's `ContentsResponse` that are Go pointers (`*string`): `null` in real Gitea answers whenever they do
 * not apply, though Gitea's swagger does not mark them `x-nullable`. They are checked by the tests themselves; the
 * rest of the entry is checked against the published definition.
 */
const POINTER_FIELDS = ['encoding', 'content', 'target', 'url', 'html_url', 'git_url', 'download_url', 'submodule_git_url', 'last_commit_sha', 'last_committer_date', 'last_author_date'];

function expectContentsEntry(entry: Record<string, unknown>): void {
  const checked = { ...entry };
  for (const f of POINTER_FIELDS) if (checked[f] === null) delete checked[f];
  // `_links` (`FileLinksResponse`) holds pointers too: a submodule has no git or html link.
  if (checked._links && typeof checked._links === 'object') {
    checked._links = Object.fromEntries(Object.entries(checked._links).filter(([, v]) => v !== null));
  }
  assertMatchesDefinition('ContentsResponse', checked);
}

/** A contents answer (entry, listing, or batch with nulls) against the published description. */
function expectContentsShape(body: unknown): void {
  const entries = Array.isArray(body) ? body : [body];
  for (const e of entries) if (e !== null) expectContentsEntry(e as Record<string, unknown>);
}

describe('GET /repos/{owner}/{repo}/contents', () => {
  it('lists the root directory: every entry with its type, last commit and links, without content', async () => {
    const res = await api.get(`${base}/contents`, { basic: reader });
    expect(res.status, res.text).toBe(200);
    expectContentsShape(res.body);
    const byName = new Map<string, any>(res.body.map((e: { name: string }) => [e.name, e]));
    expect([...byName.keys()].sort()).toEqual(
      ['.gitmodules', 'README.md', 'big.bin', 'bin.dat', 'dir with space', 'docs', 'empty.txt', 'link', 'sub', 'ünï.txt'].sort(),
    );
    expect(byName.get('docs')).toMatchObject({ type: 'dir', path: 'docs', content: null, encoding: null, download_url: null });
    expect(byName.get('link')).toMatchObject({ type: 'symlink', target: 'README.md' });
    expect(byName.get('sub')).toMatchObject({ type: 'submodule', sha: SUBMODULE_COMMIT, submodule_git_url: 'https://example.com/sub.git', html_url: null, git_url: null, download_url: null });
    expect(byName.get('README.md')).toMatchObject({
      type: 'file', content: null, encoding: null, size: README.length, last_commit_sha: c.c3, last_committer_date: '2024-03-01T00:00:00Z',
    });
    expect(byName.get('docs').last_commit_sha).toBe(c.c2);
    // The same with ?ref= and through `contents/` with an empty path.
    const atFeature = await api.get(`${base}/contents?ref=feature`, { basic: reader });
    expect(atFeature.body.map((e: { name: string }) => e.name)).toContain('feature.txt');
  });

  it('returns a file with its base64 content, blob sha, last commit and Gitea’s links', async () => {
    const res = await api.get(`${base}/contents/README.md`, { basic: reader });
    expect(res.status, res.text).toBe(200);
    expectContentsShape(res.body);
    expect(res.body).toEqual({
      name: 'README.md',
      path: 'README.md',
      sha: await blobSha('main:README.md'),
      last_commit_sha: c.c3,
      last_committer_date: '2024-03-01T00:00:00Z',
      last_author_date: '2024-03-01T00:00:00Z',
      type: 'file',
      size: README.length,
      encoding: 'base64',
      content: README.toString('base64'),
      target: null,
      url: `${apiUrl}/contents/README.md?ref=main`,
      html_url: `${htmlUrl}/src/branch/main/README.md`,
      git_url: `${apiUrl}/git/blobs/${await blobSha('main:README.md')}`,
      download_url: `${htmlUrl}/raw/branch/main/README.md`,
      submodule_git_url: null,
      _links: {
        self: `${apiUrl}/contents/README.md?ref=main`,
        git: `${apiUrl}/git/blobs/${await blobSha('main:README.md')}`,
        html: `${htmlUrl}/src/branch/main/README.md`,
      },
    });
  });

  it('reads at a branch, an (annotated) tag and a commit given as ?ref=, with links of that kind', async () => {
    const tag = await api.get(`${base}/contents/docs/guide.md?ref=v1`, { basic: reader });
    expect(decode(tag.body.content).toString()).toBe('guide v2\n');
    expect(tag.body).toMatchObject({ last_commit_sha: c.c2, url: `${apiUrl}/contents/docs/guide.md?ref=v1`, html_url: `${htmlUrl}/src/tag/v1/docs/guide.md` });
    const commit = await api.get(`${base}/contents/docs/guide.md?ref=${c.c1}`, { basic: reader });
    expect(decode(commit.body.content).toString()).toBe('guide v1\n');
    expect(commit.body.html_url).toBe(`${htmlUrl}/src/commit/${c.c1}/docs/guide.md`);
    const branch = await api.get(`${base}/contents/README.md?ref=release/1.0`, { basic: reader });
    expect(decode(branch.body.content).toString()).toBe('# tree\n');
    expect(branch.body.html_url).toBe(`${htmlUrl}/src/branch/release/1.0/README.md`);
  });

  it('lists subdirectories and reads nested, empty, binary, large, spaced and non-ASCII files', async () => {
    const docs = await api.get(`${base}/contents/docs`, { basic: reader });
    expect(docs.body.map((e: { path: string; type: string }) => [e.path, e.type])).toEqual([
      ['docs/deep', 'dir'],
      ['docs/guide.md', 'file'],
    ]);
    const nested = await api.get(`${base}/contents/docs/deep/nested.txt`, { basic: reader });
    expect(decode(nested.body.content).toString()).toBe('deep\n');
    const empty = await api.get(`${base}/contents/empty.txt`, { basic: reader });
    expect(empty.body).toMatchObject({ size: 0, encoding: 'base64', content: '' });
    const bin = await api.get(`${base}/contents/bin.dat`, { basic: reader });
    expect(decode(bin.body.content).equals(BIN)).toBe(true);
    const big = await api.get(`${base}/contents/big.bin`, { basic: reader });
    expect(big.body.size).toBe(BIG.length);
    expect(decode(big.body.content).equals(BIG)).toBe(true);
    const spaced = await api.get(`${base}/contents/dir%20with%20space/file%20name.txt`, { basic: reader });
    expect(decode(spaced.body.content).toString()).toBe('spaced\n');
    expect(spaced.body.url).toBe(`${apiUrl}/contents/dir%20with%20space/file%20name.txt?ref=main`);
    const unicode = await api.get(`${base}/contents/${encodeURIComponent('ünï.txt')}`, { basic: reader });
    expect(unicode.body).toMatchObject({ name: 'ünï.txt', path: 'ünï.txt' });
  });

  it('describes symlinks (target) and submodules (their URL, no links)', async () => {
    const link = await api.get(`${base}/contents/link`, { basic: reader });
    expect(link.body).toMatchObject({ type: 'symlink', target: 'README.md', name: 'link' });
    const sub = await api.get(`${base}/contents/sub`, { basic: reader });
    expect(sub.body).toMatchObject({ type: 'submodule', sha: SUBMODULE_COMMIT, submodule_git_url: 'https://example.com/sub.git', html_url: null, download_url: null });
  });

  it('answers 404 for unknown paths and refs, traversal, .git, absolute and malformed paths', async () => {
    expectApiError(await api.get(`${base}/contents/nope.md`, { basic: reader }), 404);
    expectApiError(await api.get(`${base}/contents/README.md?ref=nope`, { basic: reader }), 404);
    expectApiError(await api.get(`${base}/contents/feature.txt`, { basic: reader }), 404);
    await expectAll404('contents', [
      'docs%2F..%2FREADME.md', '..%2F..%2F..%2Fetc%2Fpasswd', 'docs%2F.%2Fguide.md', '.git/config', '.GIT/HEAD', 'docs/.git',
      'docs/.git/config', '%2Fetc%2Fpasswd', 'README.md%0A', 'README.md%09',
    ]);
    expectClientError(await api.get(`${base}/contents/README.md%00`, { basic: reader }));
    // Literal dot segments, sent as they are (fetch would resolve them before sending).
    for (const p of ['docs/../README.md', '../../../../etc/passwd', './README.md', 'docs/./guide.md']) {
      const res = await rawGet(`/api/v1${base}/contents/${p}`, reader);
      expect(res.status, `${p}: ${res.text}`).toBe(404);
    }
  });
});

describe('GET /repos/{owner}/{repo}/raw/{filepath}', () => {
  it('serves the bytes with Gitea’s headers (text and binary)', async () => {
    const res = await fetch(suite.api(`${base}/raw/README.md`), { headers: { authorization: reader.basic } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('etag')).toBe(`"${await blobSha('main:README.md')}"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Repository files are user content (issue 25): sandboxed, text never served as HTML.
    expect(res.headers.get('content-security-policy')).toMatch(/(^|; )sandbox$/);
    expect(res.headers.get('x-gitea-object-type')).toBe('file');
    expect(await res.text()).toBe('# tree\n\nupdated\n');
    const bin = await fetch(suite.api(`${base}/raw/bin.dat`), { headers: { authorization: reader.basic } });
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
    expect(bin.headers.get('content-security-policy')).toMatch(/(^|; )sandbox$/);
    expect(Buffer.from(await bin.arrayBuffer()).equals(BIN)).toBe(true);
  });

  it('streams large files in full', async () => {
    const res = await fetch(suite.api(`${base}/raw/big.bin`), { headers: { authorization: reader.basic } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BIG.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(BIG)).toBe(true);
  });

  it('takes the ref from ?ref= or from the start of the path (branch with a slash, tag, commit)', async () => {
    const text = async (p: string) => {
      const res = await fetch(suite.api(`${base}/raw/${p}`), { headers: { authorization: reader.basic } });
      expect(res.status, p).toBe(200);
      return res.text();
    };
    expect(await text('docs/guide.md?ref=v1')).toBe('guide v2\n');
    expect(await text(`docs/guide.md?ref=${c.c1}`)).toBe('guide v1\n');
    expect(await text('release/1.0/README.md')).toBe('# tree\n');
    expect(await text(`${c.c1}/docs/guide.md`)).toBe('guide v1\n');
    expect(await text('feature/feature.txt')).toBe('feature\n');
  });

  it('answers 404 for directories, unknown paths and refs, traversal and .git', async () => {
    await expectAll404('raw', ['docs', 'nope', 'README.md?ref=nope', 'docs%2F..%2FREADME.md', '.git/config', '%2Fetc%2Fpasswd', 'sub']);
    for (const p of ['docs/../README.md', '../../../../etc/passwd']) {
      const res = await rawGet(`/api/v1${base}/raw/${p}`, reader);
      expect(res.status, `${p}: ${res.text}`).toBe(404);
    }
  });
});

describe('batch file contents: POST and GET /repos/{owner}/{repo}/file-contents', () => {
  const requested = [
    'README.md', 'docs', 'link', 'sub', 'nope.md', '../README.md', 'docs/../README.md', '/README.md', '.git/config',
    '', 'empty.txt', 'docs/deep/nested.txt', 'README.md',
  ];
  const getUrl = (files: unknown, ref?: string) =>
    `${base}/file-contents?${new URLSearchParams({ ...(ref ? { ref } : {}), body: JSON.stringify({ files }) })}`;

  it('answers in request order, null for what cannot be retrieved; the GET twin answers the same', async () => {
    const post = await api.post(`${base}/file-contents`, { basic: reader, body: { files: requested } });
    expect(post.status, post.text).toBe(200);
    expectContentsShape(post.body);
    expect(post.body.map((e: { path: string; type: string } | null) => e && `${e.type}:${e.path}`)).toEqual([
      'file:README.md', 'dir:docs', 'symlink:link', 'submodule:sub', null, null, null, null, null, null, 'file:empty.txt',
      'file:docs/deep/nested.txt', 'file:README.md',
    ]);
    // Each file is exactly what the single-file route answers (Gitea's own test).
    const single = await api.get(`${base}/contents/README.md`, { basic: reader });
    expect(post.body[0]).toEqual(single.body);
    expect(post.body[1]).toMatchObject({ content: null, encoding: null });
    expect(post.body[2]).toMatchObject({ target: 'README.md' });
    expect(post.body[10]).toMatchObject({ content: '', size: 0 });

    const get = await api.get(getUrl(requested), { basic: reader });
    expect(get.status, get.text).toBe(200);
    expectContentsShape(get.body);
    expect(get.body).toEqual(post.body);
  });

  it('reads at ?ref= (tag, commit, branch with a slash) and includes large files in full', async () => {
    const atTag = await api.post(`${base}/file-contents?ref=v1`, { basic: reader, body: { files: ['docs/guide.md', 'empty.txt'] } });
    expect(decode(atTag.body[0].content).toString()).toBe('guide v2\n');
    expect(atTag.body[0].html_url).toBe(`${htmlUrl}/src/tag/v1/docs/guide.md`);
    expect(atTag.body[1]).toBeNull();
    const atCommit = await api.get(getUrl(['docs/guide.md'], c.c1), { basic: reader });
    expect(decode(atCommit.body[0].content).toString()).toBe('guide v1\n');
    const atBranch = await api.post(`${base}/file-contents?ref=release/1.0`, { basic: reader, body: { files: ['README.md'] } });
    expect(decode(atBranch.body[0].content).toString()).toBe('# tree\n');
    const big = await api.post(`${base}/file-contents`, { basic: reader, body: { files: ['big.bin', 'bin.dat'] } });
    expect(decode(big.body[0].content).equals(BIG)).toBe(true);
    expect(decode(big.body[1].content).equals(BIN)).toBe(true);
  });

  it('answers 404 for an unknown ref, 422 for a missing or empty list, 400 for unusable bodies', async () => {
    expectApiError(await api.post(`${base}/file-contents?ref=nope`, { basic: reader, body: { files: ['README.md'] } }), 404);
    expectApiError(await api.get(getUrl(['README.md'], 'nope'), { basic: reader }), 404);
    expectApiError(await api.post(`${base}/file-contents`, { basic: reader, body: { files: [] } }), 422, 'files should not be empty');
    expectApiError(await api.post(`${base}/file-contents`, { basic: reader, body: {} }), 422);
    expectApiError(await api.post(`${base}/file-contents`, { basic: reader, body: { files: 'README.md' } }), 422);
    expectApiError(await api.post(`${base}/file-contents`, { basic: reader, body: { files: [1, 2] } }), 422);
    expectApiError(
      await api.post(`${base}/file-contents`, { basic: reader, body: '{"files":', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expectApiError(await api.get(`${base}/file-contents`, { basic: reader }), 400, 'invalid body parameter');
    for (const body of ['not json', '[]', '{"files":"README.md"}', '{"files":[1]}', 'null']) {
      expectApiError(await api.get(`${base}/file-contents?body=${encodeURIComponent(body)}`, { basic: reader }), 400, 'invalid body parameter');
    }
    // An empty list through GET is simply an empty answer.
    const none = await api.get(getUrl([]), { basic: reader });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it('needs read access (404 otherwise) and, with a token, write:repository for the POST form', async () => {
    expectApiError(await api.post(`${base}/file-contents`, { basic: stranger, body: { files: ['README.md'] } }), 404);
    expectApiError(await api.get(getUrl(['README.md'])), 404);
    const readToken = await createToken(suite, reader, ['read:repository']);
    expect((await api.get(getUrl(['README.md']), { token: readToken })).status).toBe(200);
    expectApiError(
      await api.post(`${base}/file-contents`, { token: readToken, body: { files: ['README.md'] } }),
      403,
      scopeMessage('write:repository', ['read:repository']),
    );
    const writeToken = await createToken(suite, reader, ['write:repository']);
    const post = await api.post(`${base}/file-contents`, { token: writeToken, body: { files: ['README.md'] } });
    expect(post.status, post.text).toBe(200);
    expect(post.body[0].path).toBe('README.md');
  });
});

describe('GET /repos/{owner}/{repo}/git/commits/{sha}', () => {
  it('returns Gitea’s Commit by sha, branch and tag, with files and stats by default', async () => {
    const res = await api.get(`${base}/git/commits/${c.c2}`, { basic: reader });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/git/commits/{sha}', 200, res.body);
    expect(res.body).toMatchObject({
      sha: c.c2,
      url: `${apiUrl}/git/commits/${c.c2}`,
      html_url: `${htmlUrl}/commit/${c.c2}`,
      created: '2024-02-01T00:00:00Z',
      parents: [{ sha: c.c1 }],
      files: [{ filename: 'docs/guide.md', status: 'modified' }],
      stats: { total: 2, additions: 1, deletions: 1 },
      commit: {
        message: 'second\n',
        author: { name: 'E2E Author', email: 'e2e-author@example.com', date: '2024-02-01T00:00:00Z' },
        committer: { name: 'E2E Committer', email: 'e2e-committer@example.com', date: '2024-02-01T00:00:00Z' },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit' },
      },
      author: null,
      committer: null,
    });
    expect((await api.get(`${base}/git/commits/feature`, { basic: reader })).body.sha).toBe(c.feature);
    expect((await api.get(`${base}/git/commits/v1`, { basic: reader })).body.sha).toBe(c.c2);
    expect((await api.get(`${base}/git/commits/${c.c3.slice(0, 10)}`, { basic: reader })).body.sha).toBe(c.c3);
  });

  it('leaves out stats, files and verification when asked to', async () => {
    const res = await api.get(`${base}/git/commits/${c.c1}?stat=false&files=false&verification=false`, { basic: reader });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ stats: null, files: null, commit: { verification: null }, parents: [] });
  });

  it('answers 404 for unknown commits and 422 for things that are no ref or sha', async () => {
    expectApiError(await api.get(`${base}/git/commits/${'1'.repeat(40)}`, { basic: reader }), 404);
    expectApiError(await api.get(`${base}/git/commits/nope`, { basic: reader }), 404);
    for (const sha of ['main~1', 'main%5E', '--output=x', 'main..feature', 'HEAD@%7B0%7D']) {
      expectApiError(await api.get(`${base}/git/commits/${sha}`, { basic: reader }), 422, /no valid ref or sha/);
    }
  });
});

describe('branches', () => {
  it('GET …/branches lists every branch with its head commit (Gitea Branch), paged', async () => {
    const res = await api.get(`${base}/branches`, { basic: reader });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/branches', 200, res.body);
    const heads = Object.fromEntries(res.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]));
    expect(heads).toEqual({ main: c.c3, feature: c.feature, 'release/1.0': c.c2 });
    expect(res.headers.get('x-total-count')).toBe('3');
    const main = res.body.find((b: { name: string }) => b.name === 'main');
    expect(main).toMatchObject({
      protected: false,
      user_can_push: false,
      commit: { message: 'third\n', url: `${htmlUrl}/commit/${c.c3}`, author: { email: 'e2e-author@example.com' }, timestamp: '2024-03-01T00:00:00Z' },
    });
    const page = await api.get(`${base}/branches?limit=1&page=2`, { basic: reader });
    expect(page.body).toHaveLength(1);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.headers.get('link')).toContain('rel="prev"');
  });

  it('GET …/branches/{branch} returns one branch (names may contain /); unknown → 404', async () => {
    const res = await api.get(`${base}/branches/release/1.0`, { basic: owner });
    expect(res.status, res.text).toBe(200);
    assertMatchesContract('GET', '/repos/{owner}/{repo}/branches/{filepath}', 200, res.body);
    expect(res.body).toMatchObject({ name: 'release/1.0', commit: { id: c.c2 }, user_can_push: true, user_can_merge: true });
    expectApiError(await api.get(`${base}/branches/nope`, { basic: owner }), 404, 'branch does not exist [name: nope]');
    expectApiError(await api.get(`${base}/branches/v1`, { basic: owner }), 404);
  });
});

describe('hostile refs and paths in the read APIs', () => {
  it('never run anything and never answer 500, even for a pushed branch named like an option', async () => {
    const dir = ws.dir('evil');
    const url = httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password });
    await git.ok(['clone', '-q', url, dir]);
    const evil = `--output=${MARKER()}`;
    await git.ok(['push', '-q', url, `HEAD:refs/heads/${evil}`], { cwd: dir });
    const e = encodeURIComponent;
    const refs = [evil, '-n1', '--all', 'main..feature', 'main^', 'HEAD@{0}', '@', 'main:README.md', 'a'.repeat(2000), 'main\u0000x', ' main'];
    const requests: Array<[string, string, unknown?]> = [];
    for (const ref of refs) {
      requests.push(
        ['GET', `/contents?ref=${e(ref)}`],
        ['GET', `/contents/README.md?ref=${e(ref)}`],
        ['GET', `/raw/README.md?ref=${e(ref)}`],
        ['GET', `/raw/${e(ref)}/README.md`],
        ['POST', `/file-contents?ref=${e(ref)}`, { files: ['README.md'] }],
        ['GET', `/commits?sha=${e(ref)}`],
        ['GET', `/commits?not=${e(ref)}`],
        ['GET', `/commits?path=${e(ref)}`],
        ['GET', `/git/commits/${e(ref)}`],
        ['GET', `/branches/${e(ref)}`],
      );
    }
    for (const p of [evil, '../../../etc/passwd', '/etc/passwd', '.git/config']) {
      requests.push(['GET', `/contents/${e(p)}`], ['GET', `/raw/${e(p)}`], ['POST', '/file-contents', { files: [p] }]);
    }
    for (const [method, suffix, body] of requests) {
      const res = await api.request(method, `${base}${suffix}`, { basic: owner, body });
      const what = `${method} ${suffix}: ${res.status} ${res.text.slice(0, 200)}`;
      expect(res.status, what).toBeLessThan(500);
      if (res.status >= 400) expectClientError(res);
      else if (suffix.startsWith('/file-contents') && (body as { files: string[] }).files[0] !== 'README.md') {
        expect(res.body, what).toEqual([null]);
      }
    }
    expect(existsSync(MARKER())).toBe(false);
    // The odd branch is listed like any other.
    const list = await api.get(`${base}/branches`, { basic: owner });
    expect(list.body.map((b: { name: string }) => b.name)).toContain(evil);
  });
});
