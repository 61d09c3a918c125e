// The repository content routes over HTTP against stand-ins for repo-service's bus side and internal endpoint.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  DomainError, RepoSubjects,
  type BranchDto, type CommitListReply, type ContentsResponseDto, type GetContentsReply, type GetFileContentsReply,
  type GetRawReply, type Paginated, type RepoAccessReply, type RepoRefDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, DomainErrorFilter, createRpcValidationPipe } from '@cairn/platform';
import { AppModule } from '../../app.module.js';
import { ApiErrorFilter } from '../../http/api-error.filter.js';
import { registerJsonBodyParser } from '../../http/json-body.js';
import { startPrivateNats, type PrivateNats } from '../../../../../test/support/integration.js';

const repo: RepoRefDto = { id: 5, ownerId: 1, ownerName: 'dora', name: 'site', defaultBranch: 'main' };
const COMMIT = 'c'.repeat(40);
const big = Buffer.alloc(700 * 1024, 0x41);

function entry(path: string, extra: Partial<ContentsResponseDto> = {}): ContentsResponseDto {
  return {
    name: path.split('/').pop()!,
    path,
    sha: 'b'.repeat(40),
    last_commit_sha: COMMIT,
    last_committer_date: '2024-03-01T00:00:00Z',
    last_author_date: '2024-03-01T00:00:00Z',
    type: 'file',
    size: 3,
    encoding: 'base64',
    content: Buffer.from('hi\n').toString('base64'),
    target: null,
    url: null,
    html_url: null,
    git_url: null,
    download_url: null,
    submodule_git_url: null,
    _links: { self: null, git: null, html: null },
    ...extra,
  };
}

const received = new Map<string, any>();
const answers = new Map<string, unknown>();

class StandInRepoService {
  answer(subject: string, msg: any): unknown {
    received.set(subject, msg);
    const a = answers.get(subject);
    const value = typeof a === 'function' ? (a as (m: any) => unknown)(msg) : a;
    if (value instanceof DomainError) throw value;
    return value;
  }
}
const SUBJECTS = {
  accessResolve: RepoSubjects.accessResolve,
  contentsGet: RepoSubjects.contentsGet,
  fileContents: RepoSubjects.fileContents,
  rawGet: RepoSubjects.rawGet,
  commitList: RepoSubjects.commitList,
  commitGet: RepoSubjects.commitGet,
  branchList: RepoSubjects.branchList,
  branchGet: RepoSubjects.branchGet,
};
for (const [method, subject] of Object.entries(SUBJECTS)) {
  Object.defineProperty(StandInRepoService.prototype, method, {
    value(this: StandInRepoService, msg: unknown) {
      return this.answer(subject, msg);
    },
    writable: true,
    configurable: true,
  });
  MessagePattern(subject)(
    StandInRepoService.prototype,
    method,
    Object.getOwnPropertyDescriptor(StandInRepoService.prototype, method)!,
  );
}
Controller()(StandInRepoService);
class StandInModule {}
Module({ controllers: [StandInRepoService] })(StandInModule);

describe('repository content routes of the gateway (integration)', () => {
  let nats: PrivateNats;
  let gateway: NestFastifyApplication;
  let standIn: INestMicroservice;
  let internal: Server;
  let internalRequests: URL[] = [];
  let base: string;

  beforeAll(async () => {
    nats = await startPrivateNats();
    const natsUrl = nats.url;

    internal = createHttpServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://internal');
      internalRequests.push(u);
      if (u.pathname !== '/internal/raw' || req.headers['x-cairn-internal-token'] !== 'cairn-dev-internal-token') {
        res.writeHead(404).end();
        return;
      }
      if (u.searchParams.get('path') === 'gone.bin') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/octet-stream', // repo-service's bytes are untyped: the gateway decides
        'content-length': String(big.length),
        etag: '"big"',
      });
      res.end(big);
    });
    await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));

    Object.assign(process.env, {
      NATS_URL: natsUrl,
      RUN_MODE: 'test',
      CAIRN__SERVER__ROOT_URL: 'http://cairn.test:3000/',
      CAIRN__CAIRN__REPO_INTERNAL_URL: `http://127.0.0.1:${(internal.address() as AddressInfo).port}`,
      CAIRN__API__DEFAULT_PAGING_NUM: '7',
    });

    const standInRef = await Test.createTestingModule({ imports: [StandInModule] }).compile();
    standIn = standInRef.createNestMicroservice<MicroserviceOptions>({
      transport: Transport.NATS,
      options: { servers: [natsUrl], queue: 'repo-service' },
    });
    standIn.useGlobalPipes(createRpcValidationPipe());
    standIn.useGlobalFilters(new DomainErrorFilter());
    await standIn.listen();

    const gwRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    gateway = gwRef.createNestApplication<NestFastifyApplication>(
      new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } }),
      { bodyParser: false },
    );
    gateway.setGlobalPrefix('api/v1');
    const fastify = gateway.getHttpAdapter().getInstance();
    registerJsonBodyParser(fastify, { json: 1 << 20, fileContent: 1 << 20, attachment: 1 << 20 });
    const errorFilter = new ApiErrorFilter(gateway.get(COMMON_SETTINGS));
    fastify.setErrorHandler((err, req, reply) => {
      const { status, body } = errorFilter.toResponse(err, req);
      void reply.status(status).send(body);
    });
    await gateway.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(gateway.getHttpServer().address() as AddressInfo).port}/api/v1/repos/dora/site`;
  });

  afterAll(async () => {
    await gateway?.close();
    await standIn?.close();
    await new Promise((r) => internal?.close(r));
    await nats?.stop();
  });

  beforeEach(() => {
    received.clear();
    answers.clear();
    internalRequests = [];
    answers.set(RepoSubjects.accessResolve, { repo, access: 'read' } satisfies RepoAccessReply);
  });

  const getJson = async (p: string, init?: RequestInit) => {
    const res = await fetch(`${base}${p}`, init);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  it('passes wildcard paths (slashes and escapes decoded) and the ref to repo-service', async () => {
    answers.set(RepoSubjects.contentsGet, (m: any) => ({ commit: COMMIT, file: entry(m.path) }) satisfies GetContentsReply);
    const res = await getJson('/contents/a%20b/%C3%BC.txt?ref=feature/x');
    expect(res.status).toBe(200);
    expect(res.body.path).toBe('a b/ü.txt');
    expect(received.get(RepoSubjects.contentsGet)).toMatchObject({
      repo,
      access: 'read',
      path: 'a b/ü.txt',
      ref: 'feature/x',
      maxBlobSize: 10 * 1024 * 1024,
    });
    const long = `${'d'.repeat(150)}/${'e'.repeat(150)}.txt`;
    expect((await getJson(`/contents/${long}`)).body.path).toBe(long);
  });

  it('answers the root listing as an array and maps NOT_FOUND to 404', async () => {
    answers.set(RepoSubjects.contentsGet, { commit: COMMIT, dir: [entry('a'), entry('b', { type: 'dir' })] });
    const list = await getJson('/contents');
    expect(list.body.map((e: ContentsResponseDto) => e.path)).toEqual(['a', 'b']);
    expect(received.get(RepoSubjects.contentsGet).path).toBe('');
    answers.set(RepoSubjects.contentsGet, DomainError.notFound('not found'));
    expect(await getJson('/contents/missing')).toMatchObject({ status: 404, body: { message: 'not found' } });
  });

  it('fills contents too large for a bus message from the internal endpoint, by commit id', async () => {
    answers.set(RepoSubjects.contentsGet, {
      commit: COMMIT,
      deferred: true,
      file: entry('big.txt', { size: big.length, content: null, encoding: null }),
    });
    const res = await getJson('/contents/big.txt');
    expect(res.body.encoding).toBe('base64');
    expect(Buffer.from(res.body.content, 'base64').equals(big)).toBe(true);
    expect(Object.fromEntries(internalRequests[0].searchParams)).toEqual({
      owner: 'dora',
      repo: 'site',
      ref: COMMIT,
      path: 'big.txt',
    });
    answers.set(RepoSubjects.contentsGet, {
      commit: COMMIT,
      deferred: true,
      file: entry('gone.bin', { size: 10, content: null, encoding: null }),
    });
    expect((await getJson('/contents/gone.bin')).status).toBe(503);
  });

  it('serves raw bytes inline with their headers, or streamed from the internal endpoint', async () => {
    answers.set(RepoSubjects.rawGet, {
      commit: COMMIT,
      path: 'logo.bin',
      name: 'logo.bin',
      sha: 'f'.repeat(40),
      size: 4,
      type: 'file',
      contentBase64: Buffer.from([0, 1, 2, 3]).toString('base64'),
    } satisfies GetRawReply);
    const small = await fetch(`${base}/raw/feature/x/logo.bin`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('application/octet-stream');
    expect(small.headers.get('etag')).toBe(`"${'f'.repeat(40)}"`);
    expect(small.headers.get('x-content-type-options')).toBe('nosniff');
    expect(small.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(Buffer.from(await small.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 3]));
    expect(received.get(RepoSubjects.rawGet)).toMatchObject({ path: 'feature/x/logo.bin', maxInlineBytes: 512 * 1024 });

    answers.set(RepoSubjects.rawGet, {
      commit: COMMIT,
      path: 'big.txt',
      name: 'big.txt',
      sha: 'f'.repeat(40),
      size: big.length,
      type: 'file',
      contentBase64: null,
    } satisfies GetRawReply);
    const large = await fetch(`${base}/raw/big.txt`);
    expect(large.status).toBe(200);
    expect(large.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(large.headers.get('content-length')).toBe(String(big.length));
    expect(Buffer.from(await large.arrayBuffer()).equals(big)).toBe(true);
    answers.set(RepoSubjects.rawGet, DomainError.notFound('not found'));
    expect((await fetch(`${base}/raw/nope`)).status).toBe(404);
  });

  it('parses GET ?body= (400 when unusable), validates POST bodies (422) and sends the [api] limits', async () => {
    answers.set(RepoSubjects.fileContents, (m: any) => ({
      commit: COMMIT,
      deferred: [],
      items: m.files.map((f: string) => (f === 'README.md' ? entry(f) : null)),
    }) satisfies GetFileContentsReply);
    const q = encodeURIComponent(JSON.stringify({ files: ['nope', 'README.md'] }));
    const got = await getJson(`/file-contents?body=${q}&ref=v1`);
    expect(got.status).toBe(200);
    expect(got.body.map((e: ContentsResponseDto | null) => e?.path ?? null)).toEqual([null, 'README.md']);
    expect(received.get(RepoSubjects.fileContents)).toMatchObject({
      ref: 'v1',
      files: ['nope', 'README.md'],
      limits: { pagingNum: 7, maxBlobSize: 10 * 1024 * 1024, maxResponseSize: 100 * 1024 * 1024 },
    });
    expect(await getJson('/file-contents?body=%7Bnope')).toMatchObject({
      status: 400,
      body: { message: 'invalid body parameter' },
    });
    expect((await getJson('/file-contents')).status).toBe(400);
    expect((await getJson(`/file-contents?body=${encodeURIComponent('{"files":[1]}')}`)).status).toBe(400);
    const post = (body: unknown) =>
      fetch(`${base}/file-contents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    expect((await post({ files: ['README.md'] })).status).toBe(200);
    expect((await post({ files: [] })).status).toBe(422);
    expect((await post({})).status).toBe(422);
    expect((await post('{"files": [')).status).toBe(400);
  });

  it('fills deferred batch entries from the internal endpoint', async () => {
    answers.set(RepoSubjects.fileContents, {
      commit: COMMIT,
      deferred: [1],
      items: [entry('README.md'), entry('big.txt', { size: big.length, content: null, encoding: null })],
    } satisfies GetFileContentsReply);
    const res = await getJson(`/file-contents?body=${encodeURIComponent('{"files":["README.md","big.txt"]}')}`);
    expect(Buffer.from(res.body[1].content, 'base64').equals(big)).toBe(true);
    expect(res.body[1].encoding).toBe('base64');
  });

  it("sets Gitea's commit list headers from the filtered total and passes the filters and flags", async () => {
    answers.set(RepoSubjects.commitList, { items: [], total: 95, page: 2, pageSize: 30 } satisfies CommitListReply);
    const res = await getJson('/commits?since=2024-03-02T00:00:00Z&until=2024-03-03T00:00:00Z&page=2&stat=false&files=0&verification=x&path=src');
    expect(res.status).toBe(200);
    expect(received.get(RepoSubjects.commitList)).toMatchObject({
      filter: { since: '2024-03-02T00:00:00Z', until: '2024-03-03T00:00:00Z', page: 2, path: 'src' },
      options: { stat: false, files: false, verification: false },
    });
    expect(Object.fromEntries(['x-total-count', 'x-total', 'x-page', 'x-perpage', 'x-pagecount', 'x-hasmore'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'x-total-count': '95',
      'x-total': '95',
      'x-page': '2',
      'x-perpage': '30',
      'x-pagecount': '4',
      'x-hasmore': 'true',
    });
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-HasMore');
    await getJson('/commits');
    expect(received.get(RepoSubjects.commitList).options).toEqual({ stat: true, files: true, verification: true });
  });

  it('routes single commits and branch names with slashes', async () => {
    answers.set(RepoSubjects.commitGet, (m: any) => ({ sha: m.sha }));
    expect((await getJson(`/git/commits/${COMMIT}?stat=0`)).body).toEqual({ sha: COMMIT });
    expect(received.get(RepoSubjects.commitGet).options).toEqual({ stat: false, files: true, verification: true });
    answers.set(RepoSubjects.branchGet, (m: any) => ({ name: m.branch }) as BranchDto);
    expect((await getJson('/branches/feature/deep/x')).body).toEqual({ name: 'feature/deep/x' });
    answers.set(RepoSubjects.branchList, { items: [{ name: 'main' } as BranchDto], total: 1 } satisfies Paginated<BranchDto>);
    const list = await getJson('/branches?limit=10');
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(received.get(RepoSubjects.branchList).query).toEqual({ limit: 10 });
  });
});
