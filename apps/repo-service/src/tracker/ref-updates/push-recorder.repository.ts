import { Injectable } from '@nestjs/common';
import type { Repository } from '../../generated/prisma/client.js';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';

/** The repository row as a push sees it, after the push's own changes. */
export type PushedRepository = Repository;

export interface PushRowChange {
  repository: PushedRepository;
  /** Set when this push was the first into an empty repository: the default branch HEAD must point at. */
  initialBranch: string | null;
}

/** The push recorder's database work: journal mark, first-push default branch, update time, in one transaction. */
@Injectable()
export class PushRecorderRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The repository as it is now (its owner is looked up before the transaction); null if it is gone. */
  find(repoId: number): Promise<PushedRepository | null> {
    return this.prisma.repository.findUnique({ where: { id: repoId } });
  }

  /** `'recorded-before'` when the journal was marked (a replay writes nothing); null if the repository is gone. */
  async inTransaction<T>(
    repoId: number,
    journalId: string,
    pushedBranches: string[],
    work: (tx: Tx, change: PushRowChange) => Promise<T>,
  ): Promise<{ change: PushRowChange; result: T } | 'recorded-before' | null> {
    return this.prisma.$transaction(async (tx) => {
      const before = await tx.repository.findUnique({ where: { id: repoId } });
      if (!before) return null;
      // First: a concurrent recording of the same journal waits here on the key, then finds it taken.
      const marked = await tx.refUpdateJournal.createMany({ data: [{ id: journalId }], skipDuplicates: true });
      if (marked.count === 0) return 'recorded-before';
      let initialBranch: string | null = null;
      if (before.isEmpty && pushedBranches.length) {
        const branch = pushedBranches.includes(before.defaultBranch) ? before.defaultBranch : pushedBranches[0];
        // Only one of two concurrent first pushes wins: the condition is re-checked under the row lock.
        const won = await tx.repository.updateMany({
          where: { id: repoId, isEmpty: true },
          data: { isEmpty: false, defaultBranch: branch, updatedAt: new Date() },
        });
        if (won.count === 1) initialBranch = branch;
      }
      if (!initialBranch) {
        await tx.repository.update({ where: { id: repoId }, data: { updatedAt: new Date() } });
      }
      const repository = await tx.repository.findUniqueOrThrow({ where: { id: repoId } });
      const change = { repository, initialBranch };
      return { change, result: await work(tx, change) };
    });
  }

  /** Forgets journal marks older than `before` (their journals were removed long since); returns how many. */
  async pruneJournalMarks(before: Date): Promise<number> {
    const { count } = await this.prisma.refUpdateJournal.deleteMany({ where: { recordedAt: { lt: before } } });
    return count;
  }
}
