// The approval count of merge rules: reviews written through ReviewsRepository, counted by Approvals.
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommonSettings } from '@cairn/platform';
import { createScratchDatabase, type ScratchDatabase } from '../../../../../test/support/integration.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { Approvals } from './approvals.js';
import { ReviewsRepository, type ReviewType } from '../issue-core/reviews.repository.js';

const HEAD = 'a'.repeat(40);
const OLD = 'b'.repeat(40);

let db: ScratchDatabase;
let prisma: PrismaService;
let reviews: ReviewsRepository;
let approvals: Approvals;

beforeAll(async () => {
  db = await createScratchDatabase('approvals', { services: ['repo'] });
  prisma = new PrismaService({ databaseUrl: db.url } as CommonSettings);
  await prisma.$connect();
  reviews = new ReviewsRepository(prisma);
  approvals = new Approvals(reviews);
}, 120_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

async function newPull(index: number) {
  const repo = await prisma.repository.upsert({
    where: { ownerId_lowerName: { ownerId: 1, lowerName: 'app' } },
    update: {},
    create: { ownerId: 1, ownerName: 'alice', ownerLowerName: 'alice', ownerKind: 'user', name: 'app', lowerName: 'app', defaultBranch: 'main' },
  });
  const issue = await prisma.issue.create({ data: { repoId: repo.id, index, isPull: true, title: `pr ${index}`, posterId: 1 } });
  await prisma.pullRequest.create({
    data: { issueId: issue.id, repoId: repo.id, headBranch: `f${index}`, baseBranch: 'main', headSha: HEAD, baseSha: OLD },
  });
  return { id: issue.id, repoId: repo.id, pullRequest: { headSha: HEAD } };
}

/** Writes a review as ReviewsService does: an official one makes the reviewer's earlier ones unofficial. */
async function review(pull: { id: number; repoId: number }, reviewerId: number, type: ReviewType, official: boolean, commitId = HEAD) {
  const row = await reviews.insert(prisma, { repoId: pull.repoId, issueId: pull.id, type, reviewerId, commitId, official });
  if (official) await reviews.unofficialEarlier(prisma, pull.id, reviewerId, row.id);
  return row;
}

describe('approvalsCount', () => {
  it('counts official, non-dismissed approvals, each reviewer once; stale ones only without dismissStale', async () => {
    const pull = await newPull(1);
    expect(await approvals.approvalsCount(pull)).toBe(0);
    await review(pull, 2, 'approve', true);
    await review(pull, 2, 'approve', true); // approving again counts once
    await review(pull, 3, 'approve', true);
    await review(pull, 3, 'reject', true); // a later change request replaces the approval
    await review(pull, 4, 'approve', false); // no write access: not official
    await review(pull, 5, 'comment', false);
    const dismissed = await review(pull, 6, 'approve', true);
    await reviews.update(prisma, dismissed.id, { dismissed: true });
    await review(pull, 7, 'approve', true, OLD); // approved an older head
    await review(pull, 8, 'request', false);
    expect(await approvals.approvalsCount(pull)).toBe(2);
    expect(await approvals.approvalsCount(pull, { dismissStale: true })).toBe(1);
  });

  it('counts per pull request', async () => {
    const other = await newPull(2);
    await review(other, 2, 'approve', true);
    expect(await approvals.approvalsCount(other)).toBe(1);
  });
});
