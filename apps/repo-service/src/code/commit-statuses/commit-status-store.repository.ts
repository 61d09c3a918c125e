import { Injectable } from '@nestjs/common';
import {
  combineCommitStatusStates, COMMIT_STATUS_STATE_FILTERS, type CommitStatusSort, type CommitStatusState, type Paging,
} from '@cairn/contracts';
import type { CommitStatus } from '../../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../../foundation/prisma/prisma.service.js';

export type CommitStatusRow = CommitStatus;

export interface NewCommitStatus {
  repoId: number;
  sha: string;
  state: CommitStatusState;
  targetUrl: string;
  description: string;
  context: string;
  creatorId: number;
}

/** Latest status per context, newest first; with none, `state` is `pending` (Gitea's `CommitStatusStates.Combine`). */
export interface CombinedCommitStatus {
  sha: string;
  state: CommitStatusState;
  statuses: CommitStatusRow[];
}

/** Gitea's `sort` values → order; anything else is newest first (`created_unix` desc). Ties by id. */
function orderOf(sort: string | undefined) {
  const by: Record<CommitStatusSort, Record<string, 'asc' | 'desc'>[]> = {
    oldest: [{ createdAt: 'asc' }, { id: 'asc' }],
    recentupdate: [{ updatedAt: 'desc' }, { id: 'desc' }],
    leastupdate: [{ updatedAt: 'asc' }, { id: 'asc' }],
    // Gitea's names are the other way round from what they say: leastindex is index desc, highestindex asc.
    leastindex: [{ index: 'desc' }],
    highestindex: [{ index: 'asc' }],
  };
  return by[sort as CommitStatusSort] ?? [{ createdAt: 'desc' }, { id: 'desc' }];
}

@Injectable()
export class CommitStatusStore {
  constructor(private readonly prisma: PrismaService) {}

  async insert(tx: Tx, status: NewCommitStatus): Promise<CommitStatusRow> {
    // One statement allocates the index: concurrent reports for one commit queue on the counter row.
    const [{ max_index: index }] = await tx.$queryRaw<{ max_index: number }[]>`
      INSERT INTO "repo".commit_status_indexes (repo_id, sha, max_index) VALUES (${status.repoId}::int, ${status.sha}, 1)
      ON CONFLICT (repo_id, sha) DO UPDATE SET max_index = commit_status_indexes.max_index + 1
      RETURNING "max_index"`;
    return tx.commitStatus.create({ data: { ...status, index } });
  }

  async list(
    repoId: number,
    sha: string,
    opts: { sort?: string; state?: string; paging: Paging },
    db: Db = this.prisma,
  ): Promise<{ rows: CommitStatusRow[]; total: number }> {
    const filtered = (COMMIT_STATUS_STATE_FILTERS as readonly string[]).includes(opts.state ?? '');
    const where = { repoId, sha, ...(filtered ? { state: opts.state } : {}) };
    const [rows, total] = await Promise.all([
      db.commitStatus.findMany({ where, orderBy: orderOf(opts.sort), skip: opts.paging.skip, take: opts.paging.take }),
      db.commitStatus.count({ where }),
    ]);
    return { rows, total };
  }

  /** Gitea's `GetLatestCommitStatus`: the highest id per context wins. */
  async latest(
    repoId: number,
    sha: string,
    paging?: Paging,
    db: Db = this.prisma,
  ): Promise<{ rows: CommitStatusRow[]; total: number }> {
    const groups = await db.commitStatus.groupBy({
      by: ['context'],
      where: { repoId, sha },
      _max: { id: true },
    });
    const ids = groups.map((g) => g._max.id).filter((id): id is number => id !== null).sort((a, b) => b - a);
    const wanted = paging ? ids.slice(paging.skip, paging.skip + paging.take) : ids;
    const rows = wanted.length
      ? await db.commitStatus.findMany({ where: { id: { in: wanted } }, orderBy: { id: 'desc' } })
      : [];
    return { rows, total: ids.length };
  }

  /** SEAM: the latest status per context of `sha` (a full commit id) and their combined state. */
  async combinedStatus(repoId: number, sha: string, db: Db = this.prisma): Promise<CombinedCommitStatus> {
    const { rows } = await this.latest(repoId, sha, undefined, db);
    return { sha, state: combineCommitStatusStates(rows.map((r) => r.state as CommitStatusState)), statuses: rows };
  }
}
