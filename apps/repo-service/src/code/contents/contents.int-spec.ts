import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError, ErrorCode,
  type ContentsResponseDto, type GetContentsRequest, type GetFileContentsRequest, type RepoRefDto,
} from '@cairn/contracts';
import { CatFilePool, gitSpawnStats, lastCommitCache } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { ContentsService, INLINE_CONTENT_BUDGET } from './contents.service.js';
import { streamRawBlob } from '../../git-core/transport/raw-blob.js';

const ROOT_URL = 'http://cairn.test:3000/';
const API = `${ROOT_URL}api/v1/repos/alice/demo`;
const HTML = `${ROOT_URL}alice/demo`;
const LIMITS = { pagingNum: 30, maxBlobSize: 10 * 1024 * 1024, maxResponseSize: 100 * 1024 * 1024 };

const repo: RepoRefDto = { id: 1, ownerId: 1, ownerName: 'alice', name: 'demo', defaultBranch: 'main' };
const emptyRepo: RepoRefDto = { id: 2, ownerId: 1, ownerName: 'alice', name: 'empty', defaultBranch: 'main', empty: true };
const scoped = (r: RepoRefDto = repo) => ({ actor: null, repo: r, access: 'read' as const });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return 'OK';
}

describe('contents, file-contents and raw over real repositories (integration)', () => {
  let root: string;
  let fx: GitFixture;
  let pool: CatFilePool;
  let svc: ContentsService;
  const c: Record<string, string> = {};
  const big = Buffer.alloc(INLINE_CONTENT_BUDGET, 7); // base64 of this is larger than the bus budget
  const bin = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]);

  beforeAll(() => {
    root = tempDir('cairn-it-contents-');
    fx = new GitFixture(root, 'alice', 'demo');
    c.first = fx.commit({
      message: 'first',
      date: '2024-01-01T00:00:00Z',
      files: {
        'README.md': '# demo\n',
        'docs/guide.md': 'guide v1\n',
        'image.bin': bin,
        'big.dat': big,
        'big2.dat': Buffer.concat([big, Buffer.from('2')]),
        'link': { symlink: 'README.md' },
        'run.sh': { exec: '#!/bin/sh\necho hi\n' },
        'a b/ü.txt': 'unicode\n',
      },
    });
    fx.addSubmoduleEntry('vendor/lib', 'https://example.com/lib.git', 'e'.repeat(40));
    c.sub = fx.commit({ message: 'add submodule', date: '2024-01-01T12:00:00Z' });
    c.second = fx.commit({
      message: 'second',
      date: '2024-01-02T10:00:00+02:00',
      authorDate: '2024-01-01T20:00:00-05:00',
      files: { 'README.md': '# demo\n\nmore\n', 'docs/api.md': 'api\n' },
    });
    fx.gitEnv({ GIT_COMMITTER_DATE: '2024-01-03T00:00:00Z' }, 'tag', '-a', 'v1.0', '-m', 'release', c.first);
    fx.git('checkout', '-q', '-b', 'feature/x');
    c.feature = fx.commit({ message: 'feature', date: '2024-01-04T00:00:00Z', files: { 'docs/guide.md': 'guide v2\n' } });
    fx.git('checkout', '-q', 'main');
    fx.publish();
    new GitFixture(root, 'alice', 'empty');
    pool = new CatFilePool({ maxProcesses: 4, idleTimeoutMs: 60_000 });
    svc = new ContentsService(new GitReadContext(pool, root, ROOT_URL, 50));
  });

  afterAll(() => {
    pool?.close();
    if (root) removeDir(root);
  });

  const get = (path: string, extra: Partial<GetContentsRequest> = {}) =>
    svc.get({ ...scoped(), path, maxBlobSize: LIMITS.maxBlobSize, ...extra } as GetContentsRequest);
  const batch = (files: string[], extra: Partial<GetFileContentsRequest> = {}) =>
    svc.fileContents({ ...scoped(), files, limits: LIMITS, ...extra } as GetFileContentsRequest);

  describe('GET contents', () => {
    it('answers a file with its base64 content, blob id, last commit and links', async () => {
      const reply = await get('README.md');
      expect(reply.commit).toBe(c.second);
      expect(reply.file).toEqual({
        name: 'README.md',
        path: 'README.md',
        sha: fx.revParse('main:README.md'),
        last_commit_sha: c.second,
        last_committer_date: '2024-01-02T10:00:00+02:00',
        last_author_date: '2024-01-01T20:00:00-05:00',
        type: 'file',
        size: 13,
        encoding: 'base64',
        content: Buffer.from('# demo\n\nmore\n').toString('base64'),
        target: null,
        url: `${API}/contents/README.md?ref=main`,
        html_url: `${HTML}/src/branch/main/README.md`,
        git_url: `${API}/git/blobs/${fx.revParse('main:README.md')}`,
        download_url: `${HTML}/raw/branch/main/README.md`,
        submodule_git_url: null,
        _links: {
          self: `${API}/contents/README.md?ref=main`,
          git: `${API}/git/blobs/${fx.revParse('main:README.md')}`,
          html: `${HTML}/src/branch/main/README.md`,
        },
      } satisfies ContentsResponseDto);
    });

    it('lists the root directory in tree order, without content, each entry with its own last commit', async () => {
      const { dir } = await get('');
      expect(dir!.map((e) => [e.path, e.type])).toEqual([
        ['.gitmodules', 'file'],
        ['README.md', 'file'],
        ['a b', 'dir'],
        ['big.dat', 'file'],
        ['big2.dat', 'file'],
        ['docs', 'dir'],
        ['image.bin', 'file'],
        ['link', 'symlink'],
        ['run.sh', 'file'],
        ['vendor', 'dir'],
      ]);
      const by = Object.fromEntries(dir!.map((e) => [e.path, e]));
      expect(dir!.every((e) => e.content === null && e.encoding === null)).toBe(true);
      expect(by['README.md'].last_commit_sha).toBe(c.second);
      expect(by['docs'].last_commit_sha).toBe(c.second);
      expect(by['image.bin'].last_commit_sha).toBe(c.first);
      expect(by['vendor'].last_commit_sha).toBe(c.sub);
      expect(by['.gitmodules'].last_commit_sha).toBe(c.sub);
      expect(by['image.bin'].size).toBe(bin.length);
      expect(by['docs'].size).toBe(0);
      expect(by['docs'].download_url).toBeNull();
      expect(by['link'].target).toBe('README.md');
      expect(by['a b'].url).toBe(`${API}/contents/a%20b?ref=main`);
    });

    it('answers a listing with its entries\' last commits once each, the newest and the folder\'s history count on request', async () => {
      expect(await get('docs')).not.toHaveProperty('commits');
      const docs = await get('docs', { withCommits: true });
      expect(docs.historyCount).toBe(2);
      expect(docs.latestCommit).toBe(c.second);
      expect(docs.commits?.map((x) => x.sha).sort()).toEqual([c.first, c.second].sort());
      expect(docs.commits?.find((x) => x.sha === c.second)).toEqual({
        sha: c.second, title: 'second', authorName: expect.any(String), authorLogin: null,
        authorDate: '2024-01-01T20:00:00-05:00', committerDate: '2024-01-02T10:00:00+02:00',
      });
      const root = await get('', { withCommits: true });
      expect(root.latestCommit).toBe(c.second);
      expect(root.historyCount).toBe(3);
      const atFeature = await get('docs', { withCommits: true, ref: 'feature/x' });
      expect(atFeature).toMatchObject({ latestCommit: c.feature, historyCount: 3 });
    });

    it('lists a subdirectory and describes symlinks, executables and submodules', async () => {
      const { dir } = await get('vendor');
      expect(dir).toHaveLength(1);
      expect(dir![0]).toMatchObject({
        name: 'lib',
        path: 'vendor/lib',
        type: 'submodule',
        sha: 'e'.repeat(40),
        size: 0,
        submodule_git_url: 'https://example.com/lib.git',
        html_url: null,
        git_url: null,
        download_url: null,
        _links: { self: `${API}/contents/vendor/lib?ref=main`, git: null, html: null },
      });
      expect((await get('vendor/lib')).file).toMatchObject({ type: 'submodule', last_commit_sha: c.sub });
      expect((await get('link')).file).toMatchObject({ type: 'symlink', target: 'README.md', content: null, size: 9 });
      expect((await get('run.sh')).file).toMatchObject({
        type: 'file',
        content: Buffer.from('#!/bin/sh\necho hi\n').toString('base64'),
      });
      expect((await get('a b/ü.txt')).file).toMatchObject({
        name: 'ü.txt',
        url: `${API}/contents/a%20b/%C3%BC.txt?ref=main`,
      });
    });

    it('reads at a tag, a commit id and a branch with a slash, linking each by its kind', async () => {
      const atTag = (await get('docs/guide.md', { ref: 'v1.0' })).file!;
      expect(atTag.html_url).toBe(`${HTML}/src/tag/v1.0/docs/guide.md`);
      expect(Buffer.from(atTag.content!, 'base64').toString()).toBe('guide v1\n');
      const atSha = (await get('README.md', { ref: c.first })).file!;
      expect(atSha.html_url).toBe(`${HTML}/src/commit/${c.first}/README.md`);
      expect(Buffer.from(atSha.content!, 'base64').toString()).toBe('# demo\n');
      const atShort = (await get('README.md', { ref: c.first.slice(0, 10) })).file!;
      expect(atShort.sha).toBe(atSha.sha);
      const atBranch = (await get('docs/guide.md', { ref: 'feature/x' })).file!;
      expect(atBranch.url).toBe(`${API}/contents/docs/guide.md?ref=feature%2Fx`);
      expect(atBranch.html_url).toBe(`${HTML}/src/branch/feature/x/docs/guide.md`);
      expect(atBranch.last_commit_sha).toBe(c.feature);
    });

    it('omits the content of files above DEFAULT_MAX_BLOB_SIZE but keeps the size', async () => {
      const f = (await get('README.md', { maxBlobSize: 5 })).file!;
      expect(f).toMatchObject({ size: 13, content: null, encoding: null });
    });

    it('defers content too large for a bus message to the gateway', async () => {
      const reply = await get('big.dat');
      expect(reply.deferred).toBe(true);
      expect(reply.file).toMatchObject({ size: big.length, content: null, encoding: null });
    });

    it('answers NOT_FOUND for missing paths, unknown refs, invalid paths and empty repositories', async () => {
      expect(await codeOf(get('no-such-file'))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('docs/nope/x'))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('README.md/x'))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('README.md', { ref: 'no-such-branch' }))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('README.md', { ref: '--output=/tmp/x' }))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('README.md', { ref: 'main^{tree}' }))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('../../etc/passwd'))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(get('.git/config'))).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(svc.get({ ...scoped(emptyRepo), path: '', maxBlobSize: 1 } as GetContentsRequest))).toBe(
        ErrorCode.NOT_FOUND,
      );
    });
  });

  describe('batch file-contents', () => {
    it('answers in request order with null for missing, invalid and traversal paths', async () => {
      const reply = await batch([
        'no-such.txt',
        'README.md',
        '../../etc/passwd',
        '.git/config',
        '/etc/passwd',
        'docs',
        'a//b',
        'README.md\0.txt',
        'docs/../README.md',
        '',
        'link',
        'vendor/lib',
        '.GIT/HEAD',
        'docs/api.md',
      ]);
      const kinds = reply.items.map((e) => (e ? `${e.type}:${e.path}` : null));
      expect(kinds).toEqual([
        null,
        'file:README.md',
        null,
        null,
        null,
        'dir:docs',
        null,
        null,
        null,
        null,
        'symlink:link',
        'submodule:vendor/lib',
        null,
        'file:docs/api.md',
      ]);
      const single = (await get('README.md')).file;
      expect(reply.items[1]).toEqual(single);
      expect(reply.items[5]).toMatchObject({ content: null, encoding: null, last_commit_sha: c.second });
      expect(reply.items[13]).toMatchObject({ last_commit_sha: c.second, content: Buffer.from('api\n').toString('base64') });
      expect(reply.deferred).toEqual([]);
    });

    it('never reads outside the repository, whatever the path', async () => {
      const reply = await batch(['../../../../../../etc/passwd', '/etc/passwd', '.git/config', 'objects/../../config']);
      expect(reply.items).toEqual([null, null, null, null]);
    });

    it('stops after DEFAULT_PAGING_NUM entries, nulls included', async () => {
      const reply = await batch(['no-such.txt', 'README.md', 'docs/api.md'], {
        limits: { ...LIMITS, pagingNum: 2 },
      });
      expect(reply.items.map((e) => e?.path ?? null)).toEqual([null, 'README.md']);
    });

    it('omits content above DEFAULT_MAX_BLOB_SIZE, keeping the size', async () => {
      const reply = await batch(['README.md', 'docs/api.md'], { limits: { ...LIMITS, maxBlobSize: 5 } });
      expect(reply.items[0]).toMatchObject({ size: 13, content: null, encoding: null });
      expect(reply.items[1]).toMatchObject({ size: 4, content: Buffer.from('api\n').toString('base64') });
    });

    it('stops before the file whose content would pass DEFAULT_MAX_RESPONSE_SIZE', async () => {
      const readmeB64 = Buffer.from('# demo\n\nmore\n').toString('base64').length;
      const files = ['no-such.txt', 'README.md', 'docs/api.md', 'docs'];
      const exact = await batch(files, { limits: { ...LIMITS, maxResponseSize: readmeB64 } });
      expect(exact.items.map((e) => e?.path ?? null)).toEqual([null, 'README.md']);
      const more = await batch(files, { limits: { ...LIMITS, maxResponseSize: readmeB64 + 8 } });
      expect(more.items.map((e) => e?.path ?? null)).toEqual([null, 'README.md', 'docs/api.md', 'docs']);
    });

    it('marks contents beyond the bus budget as deferred instead of inlining them', async () => {
      const reply = await batch(['README.md', 'big.dat', 'big2.dat']);
      expect(reply.items.map((e) => e?.size)).toEqual([13, big.length, big.length + 1]);
      expect(reply.items[0]!.content).not.toBeNull();
      expect(reply.deferred).toEqual([1, 2]);
      expect(reply.items[1]).toMatchObject({ content: null, encoding: null });
    });

    it('answers NOT_FOUND for an unknown ref and for an empty repository', async () => {
      expect(await codeOf(batch(['README.md'], { ref: 'not-exist' }))).toBe(ErrorCode.NOT_FOUND);
      expect(
        await codeOf(svc.fileContents({ ...scoped(emptyRepo), files: ['a'], limits: LIMITS } as GetFileContentsRequest)),
      ).toBe(ErrorCode.NOT_FOUND);
    });

    it('reads 30 files through the one pooled cat-file process and one git log walk', async () => {
      await batch(['README.md']); // the repository's process exists from here on
      const repoPath = fx.bare;
      const pid = pool.pidOf(repoPath);
      expect(pid).toBeDefined();
      const catFileBefore = gitSpawnStats.count('cat-file');
      const logBefore = gitSpawnStats.count('log');
      const totalBefore = gitSpawnStats.total;
      const files = Array.from({ length: 30 }, (_, i) =>
        ['README.md', 'docs/api.md', 'docs/guide.md', 'image.bin', 'run.sh', 'a b/ü.txt'][i % 6],
      );
      lastCommitCache.clear();
      const reply = await batch(files);
      expect(reply.items.filter((e) => e !== null)).toHaveLength(30);
      expect(gitSpawnStats.count('cat-file') - catFileBefore).toBe(0);
      expect(gitSpawnStats.count('log') - logBefore).toBe(1);
      expect(gitSpawnStats.total - totalBefore).toBe(1);
      expect(pool.pidOf(repoPath)).toBe(pid);
      // The same files at the same commit again: last commits come from the cache, so no process at all.
      const again = await batch(files);
      expect(again).toEqual(reply);
      expect(gitSpawnStats.total - totalBefore).toBe(1);
    });

    it('replaces a crashed cat-file process and answers the request anyway', async () => {
      await batch(['README.md']);
      const pid = pool.pidOf(fx.bare)!;
      const spawnedBefore = pool.spawned;
      process.kill(pid, 'SIGKILL');
      const reply = await batch(['README.md', 'docs/api.md']);
      expect(reply.items.map((e) => e?.path)).toEqual(['README.md', 'docs/api.md']);
      expect(pool.pidOf(fx.bare)).not.toBe(pid);
      expect(pool.spawned).toBe(spawnedBefore + 1);
    });
  });

  describe('raw', () => {
    it('returns small blobs inline', async () => {
      const text = await svc.raw({ ...scoped(), path: 'README.md', maxInlineBytes: 1024 } as never);
      expect(text).toMatchObject({ commit: c.second, path: 'README.md', type: 'file', size: 13 });
      expect(Buffer.from(text.contentBase64!, 'base64').toString()).toBe('# demo\n\nmore\n');
      const binary = await svc.raw({ ...scoped(), path: 'image.bin', maxInlineBytes: 1024 } as never);
      expect(Buffer.from(binary.contentBase64!, 'base64')).toEqual(bin);
    });

    it('recognises a leading branch, tag or commit in the path when no ref is given', async () => {
      const viaBranch = await svc.raw({ ...scoped(), path: 'feature/x/docs/guide.md', maxInlineBytes: 1024 } as never);
      expect(viaBranch).toMatchObject({ commit: c.feature, path: 'docs/guide.md' });
      expect(Buffer.from(viaBranch.contentBase64!, 'base64').toString()).toBe('guide v2\n');
      const viaTag = await svc.raw({ ...scoped(), path: 'v1.0/README.md', maxInlineBytes: 1024 } as never);
      expect(viaTag).toMatchObject({ commit: c.first, path: 'README.md' });
      const viaSha = await svc.raw({ ...scoped(), path: `${c.first}/README.md`, maxInlineBytes: 1024 } as never);
      expect(viaSha).toMatchObject({ commit: c.first, path: 'README.md' });
    });

    it('leaves large blobs to the internal HTTP endpoint', async () => {
      const reply = await svc.raw({ ...scoped(), path: 'big.dat', maxInlineBytes: 512 * 1024 } as never);
      expect(reply).toMatchObject({ size: big.length, contentBase64: null });
    });

    it('answers NOT_FOUND for directories, submodules, missing files and empty repositories', async () => {
      for (const path of ['docs', 'vendor/lib', 'nope.txt', '../x', '']) {
        expect(await codeOf(svc.raw({ ...scoped(), path, maxInlineBytes: 10 } as never))).toBe(ErrorCode.NOT_FOUND);
      }
      expect(await codeOf(svc.raw({ ...scoped(emptyRepo), path: 'a', maxInlineBytes: 10 } as never))).toBe(
        ErrorCode.NOT_FOUND,
      );
    });

    describe('streamRawBlob over HTTP', () => {
      let server: Server;
      let base: string;
      beforeAll(async () => {
        server = createServer((req, res) => {
          const u = new URL(req.url!, 'http://x');
          void streamRawBlob(fx.bare, u.searchParams.get('ref') ?? '', u.searchParams.get('path') ?? '', res, pool);
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      afterAll(async () => {
        await new Promise((r) => server?.close(r));
      });

      it('streams the exact bytes of a large blob with length, type and ETag', async () => {
        const res = await fetch(`${base}/?ref=${c.second}&path=big.dat`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-length')).toBe(String(big.length));
        expect(res.headers.get('content-type')).toBe('application/octet-stream');
        expect(res.headers.get('etag')).toBe(`"${fx.revParse('main:big.dat')}"`);
        expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
      });

      it('serves text untyped (the gateway decides) and refuses directories, bad refs and traversal', async () => {
        const res = await fetch(`${base}/?ref=main&path=${encodeURIComponent('a b/ü.txt')}`);
        expect(res.headers.get('content-type')).toBe('application/octet-stream');
        expect(await res.text()).toBe('unicode\n');
        expect((await fetch(`${base}/?ref=main&path=docs`)).status).toBe(404);
        expect((await fetch(`${base}/?ref=nope&path=README.md`)).status).toBe(404);
        expect((await fetch(`${base}/?ref=-x&path=README.md`)).status).toBe(400);
        expect((await fetch(`${base}/?ref=main&path=..%2F..%2Fetc%2Fpasswd`)).status).toBe(400);
      });
    });
  });
});
