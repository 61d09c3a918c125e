// The commit status store against real Postgres: per-commit indexes under concurrency, Gitea's sort and filter.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommonSettings } from '@cairn/platform';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { CommitStatusStore, type NewCommitStatus } from './commit-status-store.repository.js';
import { createScratchDatabase, type ScratchDatabase } from '../../../../../test/support/integration.js';

const SHA = 'a'.repeat(40);
let db: ScratchDatabase;
let prisma: PrismaService;
let store: CommitStatusStore;
let repoId: number;

beforeAll(async () => {
  db = await createScratchDatabase('cstatus', { services: ['repo'] });
  prisma = new PrismaService({ databaseUrl: db.url } as CommonSettings);
  await prisma.$connect();
  store = new CommitStatusStore(prisma);
  const [row] = await db.sql<{ id: number }>(
    `INSERT INTO repo.repositories (owner_id, owner_name, owner_lower_name, owner_kind, name, lower_name, default_branch)
     VALUES (1, 'u', 'u', 'user', 'r', 'r', 'main') RETURNING id`,
  );
  repoId = row.id;
}, 60_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

function report(sha: string, state: NewCommitStatus['state'], context: string) {
  return prisma.$transaction((tx) =>
    store.insert(tx, { repoId, sha, state, context, targetUrl: '', description: '', creatorId: 1 }),
  );
}

describe('CommitStatusStore', () => {
  it('numbers the statuses of one commit from 1, without gaps or collisions under concurrency', async () => {
    const sha = 'b'.repeat(40);
    const rows = await Promise.all(Array.from({ length: 8 }, (_, i) => report(sha, 'pending', `ci/${i}`)));
    expect(rows.map((r) => r.index).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Another commit starts again at 1.
    expect((await report('c'.repeat(40), 'success', 'ci')).index).toBe(1);
  });

  it('combines the latest status of each context; older reports of a context no longer count', async () => {
    expect(await store.combinedStatus(repoId, SHA)).toEqual({ sha: SHA, state: 'pending', statuses: [] });
    await report(SHA, 'failure', 'ci/build');
    await report(SHA, 'success', 'ci/lint');
    expect((await store.combinedStatus(repoId, SHA)).state).toBe('failure');
    await report(SHA, 'pending', 'ci/build');
    expect((await store.combinedStatus(repoId, SHA)).state).toBe('pending');
    await report(SHA, 'success', 'ci/build');
    const combined = await store.combinedStatus(repoId, SHA);
    expect(combined.state).toBe('success');
    expect(combined.statuses.map((s) => [s.context, s.state, s.index])).toEqual([
      ['ci/build', 'success', 4],
      ['ci/lint', 'success', 2],
    ]);
  });

  it('lists with Gitea sort orders and state filter; unknown states filter nothing', async () => {
    const paging = { page: 1, limit: 50, skip: 0, take: 50 };
    const idx = async (sort?: string, state?: string) =>
      (await store.list(repoId, SHA, { sort, state, paging })).rows.map((r) => r.index);
    expect(await idx()).toEqual([4, 3, 2, 1]);
    expect(await idx('oldest')).toEqual([1, 2, 3, 4]);
    expect(await idx('leastindex')).toEqual([4, 3, 2, 1]);
    expect(await idx('highestindex')).toEqual([1, 2, 3, 4]);
    expect(await idx(undefined, 'success')).toEqual([4, 2]);
    expect(await idx(undefined, 'bogus')).toHaveLength(4);
    const page = await store.list(repoId, SHA, { paging: { page: 2, limit: 2, skip: 2, take: 2 } });
    expect([page.rows.map((r) => r.index), page.total]).toEqual([[2, 1], 4]);
  });

  it('pages the latest statuses and counts the contexts', async () => {
    const { rows, total } = await store.latest(repoId, SHA, { page: 2, limit: 1, skip: 1, take: 1 });
    expect([rows.map((r) => r.context), total]).toEqual([['ci/lint'], 2]);
  });
});
