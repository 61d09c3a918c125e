import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import {
  ErrorCode, IdentitySubjects, RepoSubjects,
  type ActorDto, type GetContentsRequest, type GetFileContentsRequest, type LookupUsersReply, type RepoRefDto, type UserDto,
} from '@cairn/contracts';
import { createRpcValidationPipe, DomainErrorFilter, PlatformModule, RpcClient } from '@cairn/platform';
import { gitSpawnStats } from '@cairn/git';
import { RepoConfigModule } from '../../foundation/config/repo-settings.js';
import { PrismaModule } from '../../foundation/prisma/prisma.module.js';
import { SigningModule } from '../signing/signing.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { BlameModule } from '../../code/blame/blame.module.js';
import { BranchesModule } from '../../code/branches/branches.module.js';
import { CommitDiffModule } from '../../code/commit-diff/commit-diff.module.js';
import { CommitsModule } from '../../code/commits/commits.module.js';
import { ContentsModule } from '../../code/contents/contents.module.js';
import { RefNamesModule } from '../ref-names/ref-names.module.js';
import { BranchProtectionService } from '../../code/branch-protection/branch-protection.service.js';
import { closeSharedCatFilePool } from './shared-pool.js';
import { GitFixture, removeDir, tempDir } from '../../../../../test/support/git-fixture.js';
import { startPrivateNats, type PrivateNats } from '../../../../../test/support/integration.js';

const carol = { id: 42, login: 'carol', email: 'carol@example.com' } as UserDto;

/** Stands in for identity-service (`identity.user.lookup`); decorators applied by hand in test files. */
class FakeIdentityHandler {
  lookup(req: { emails?: string[] }): LookupUsersReply {
    const hit = (req.emails ?? []).includes(carol.email);
    return { users: hit ? [carol] : [], byEmail: hit ? { [carol.email]: carol.id } : {}, adminIds: [] };
  }
}
Controller()(FakeIdentityHandler);
MessagePattern(IdentitySubjects.userLookup)(
  FakeIdentityHandler.prototype,
  'lookup',
  Object.getOwnPropertyDescriptor(FakeIdentityHandler.prototype, 'lookup')!,
);
class FakeIdentityModule {}
Module({ controllers: [FakeIdentityHandler] })(FakeIdentityModule);

const writer: ActorDto = { id: 42, login: 'carol', isAdmin: false, scopes: ['all'], hasTwoFactor: false };

describe('git read handlers over a private NATS (integration)', () => {
  let root: string;
  let nats: PrivateNats;
  let app: INestMicroservice;
  let identity: INestMicroservice;
  let rpc: RpcClient;
  let fx: GitFixture;
  const repo: RepoRefDto = { id: 9, ownerId: 3, ownerName: 'Carol', name: 'Tools', defaultBranch: 'main' };
  const c: Record<string, string> = {};

  beforeAll(async () => {
    root = tempDir('cairn-it-gitread-');
    fx = new GitFixture(root, 'Carol', 'Tools');
    const carolAuthor = { name: 'Carol', email: 'carol@example.com' };
    c.a = fx.commit({ message: 'a', date: '2024-02-01T00:00:00Z', files: { 'x.txt': 'x\n' }, author: carolAuthor });
    fx.git('branch', 'zeta');
    fx.git('branch', 'alpha');
    c.b = fx.commit({ message: 'b', date: '2024-02-02T00:00:00Z', files: { 'y.txt': 'y\n' } });
    fx.git('checkout', '-q', '-b', 'feature/new');
    c.f = fx.commit({ message: 'f\n\nbody', date: '2024-02-03T00:00:00Z', files: { 'z.txt': 'z\n' }, author: carolAuthor });
    fx.git('checkout', '-q', 'main');
    fx.publish();

    nats = await startPrivateNats();
    const natsUrl = nats.url;
    Object.assign(process.env, {
      NATS_URL: natsUrl,
      RUN_MODE: 'test',
      CAIRN__SERVER__ROOT_URL: 'http://cairn.test:3000/',
      CAIRN__REPOSITORY__ROOT: root,
    });

    const moduleRef = await Test.createTestingModule({
      // The signatures part of the read APIs reads repositories' trust facts and the instance key: repo-service's
      // settings, Prisma, storage and signing modules come along.
      imports: [PlatformModule.forService({ service: 'repo' }), RepoConfigModule, PrismaModule, StorageModule, SigningModule,
        ContentsModule, CommitsModule, BranchesModule, CommitDiffModule, BlameModule, RefNamesModule],
    })
      // No branch is protected here (the rules have their own tests).
      .overrideProvider(BranchProtectionService)
      .useValue({ standingFor: () => Promise.resolve(new Map()) })
      .compile();
    app = moduleRef.createNestMicroservice<MicroserviceOptions>({
      transport: Transport.NATS,
      options: { servers: [natsUrl], queue: 'repo-service' },
    });
    app.useGlobalPipes(createRpcValidationPipe());
    app.useGlobalFilters(new DomainErrorFilter());
    await app.listen();

    const identityRef = await Test.createTestingModule({ imports: [FakeIdentityModule] }).compile();
    identity = identityRef.createNestMicroservice<MicroserviceOptions>({
      transport: Transport.NATS,
      options: { servers: [natsUrl], queue: 'identity-service' },
    });
    await identity.listen();

    rpc = new RpcClient(natsUrl, 10_000, 'gitread-it');
    await rpc.connect();
  });

  afterAll(async () => {
    await rpc?.close().catch(() => undefined);
    await app?.close();
    await identity?.close();
    closeSharedCatFilePool();
    await nats?.stop();
    if (root) removeDir(root);
  });

  const scoped = (actor: ActorDto | null = null, access: 'read' | 'write' = 'read') => ({ actor, repo, access });

  it('lists branches newest commit first, then by name, with paging totals', async () => {
    const page = await rpc.send(RepoSubjects.branchList, { ...scoped(), query: {} });
    expect(page.total).toBe(4);
    expect(page.items.map((b) => b.name)).toEqual(['feature/new', 'main', 'alpha', 'zeta']);
    const second = await rpc.send(RepoSubjects.branchList, {
      ...scoped(),
      query: { page: 2, limit: 3 },
    });
    expect(second).toMatchObject({ total: 4, items: [{ name: 'zeta' }] });
  });

  it("answers one branch (names with slashes) in Gitea's Branch shape, usernames from identity-service", async () => {
    const branch = await rpc.send(RepoSubjects.branchGet, { ...scoped(writer, 'write'), branch: 'feature/new' });
    expect(branch).toEqual({
      name: 'feature/new',
      commit: {
        id: c.f,
        message: 'f\n\nbody\n',
        url: `http://cairn.test:3000/Carol/Tools/commit/${c.f}`,
        author: { name: 'Carol', email: 'carol@example.com', username: 'carol' },
        committer: { name: 'Carol', email: 'carol@example.com', username: 'carol' },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '', trust_status: '' },
        timestamp: '2024-02-03T00:00:00Z',
        added: null,
        removed: null,
        modified: null,
      },
      protected: false,
      required_approvals: 0,
      enable_status_check: false,
      status_check_contexts: [],
      user_can_push: true,
      user_can_merge: true,
      effective_branch_protection_name: '',
    });
    const anonymous = await rpc.send(RepoSubjects.branchGet, { ...scoped(), branch: 'main' });
    expect(anonymous).toMatchObject({ user_can_push: false, user_can_merge: false, commit: { id: c.b } });
    expect(anonymous.commit.author.username).toBe('');
    await expect(rpc.send(RepoSubjects.branchGet, { ...scoped(), branch: 'nope' })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
    await expect(rpc.send(RepoSubjects.branchGet, { ...scoped(), branch: '../main' })).rejects.toMatchObject({
      code: ErrorCode.NOT_FOUND,
    });
  });

  it('lists commits with since/until through the bus, users resolved in one lookup', async () => {
    const reply = await rpc.send(RepoSubjects.commitList, {
      ...scoped(),
      filter: { sha: 'feature/new', since: '2024-02-02T00:00:00Z' },
      options: { stat: true, verification: true, files: true },
    });
    expect(reply).toMatchObject({ total: 2, page: 1, pageSize: 30 });
    expect(reply.items.map((i) => [i.sha, i.author?.login ?? null])).toEqual([
      [c.f, 'carol'],
      [c.b, null],
    ]);
    await expect(
      rpc.send(RepoSubjects.commitList, {
        ...scoped(),
        filter: { until: 'yesterday' },
        options: { stat: false, verification: false, files: false },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.UNPROCESSABLE, message: "invalid 'until' format, expected ISO 8601 (RFC3339)" });
  });

  it('answers batch file contents with nulls for traversal, through one cat-file process', async () => {
    const limits = { pagingNum: 30, maxBlobSize: 1024, maxResponseSize: 1 << 20 };
    await rpc.send(RepoSubjects.fileContents, { ...scoped(), files: ['x.txt'], limits });
    const catFile = gitSpawnStats.count('cat-file');
    const reply = await rpc.send(RepoSubjects.fileContents, {
      ...scoped(),
      ref: 'feature/new',
      files: ['z.txt', '../../etc/passwd', '.git/config', '/etc/passwd', 'x.txt'],
      limits,
    });
    expect(reply.items.map((e) => e?.path ?? null)).toEqual(['z.txt', null, null, null, 'x.txt']);
    expect(Buffer.from(reply.items[0]!.content!, 'base64').toString()).toBe('z\n');
    expect(gitSpawnStats.count('cat-file')).toBe(catFile);
  });

  it('answers contents and validates messages', async () => {
    const root_ = await rpc.send(RepoSubjects.contentsGet, { ...scoped(), path: '', maxBlobSize: 10 });
    expect(root_.dir!.map((e) => e.name)).toEqual(['x.txt', 'y.txt']);
    expect(root_.dir![0].url).toBe('http://cairn.test:3000/api/v1/repos/Carol/Tools/contents/x.txt?ref=main');
    await expect(
      rpc.send(RepoSubjects.contentsGet, { ...scoped(), path: 'missing', maxBlobSize: 10 }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    // Deliberately invalid messages: no repository (with a level, so validation rather than the access check refuses
    // it), then `files` not a list.
    await expect(rpc.send(RepoSubjects.contentsGet, { actor: null, access: 'read', path: 'x.txt' } as unknown as GetContentsRequest)).rejects.toMatchObject({
      code: ErrorCode.INVALID_ARGUMENT,
    });
    await expect(
      rpc.send(RepoSubjects.fileContents, { ...scoped(), files: 'x.txt', limits: { pagingNum: 1, maxBlobSize: 1, maxResponseSize: 1 } } as unknown as GetFileContentsRequest),
    ).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
  });
});
