import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService, type Db } from '../prisma/prisma.service.js';

/** A repository as access decisions need it, with the asking user's collaboration and the teams given it. */
export interface AccessRow {
  id: number;
  ownerId: number;
  ownerName: string;
  ownerKind: string;
  name: string;
  defaultBranch: string;
  isPrivate: boolean;
  isEmpty: boolean;
  isArchived: boolean;
  trustModel: string;
  /** The user's collaboration mode, or null. */
  collabMode: string | null;
  /** Teams given this repository explicitly. */
  teamIds: number[];
}

interface RawAccessRow {
  id: number;
  owner_id: number;
  owner_name: string;
  owner_kind: string;
  name: string;
  default_branch: string;
  is_private: boolean;
  is_empty: boolean;
  is_archived: boolean;
  trust_model: string;
  collab_mode: string | null;
  team_ids: number[] | null;
}

function toAccessRow(r: RawAccessRow): AccessRow {
  return {
    id: r.id,
    ownerId: r.owner_id,
    ownerName: r.owner_name,
    ownerKind: r.owner_kind,
    name: r.name,
    defaultBranch: r.default_branch,
    isPrivate: r.is_private,
    isEmpty: r.is_empty,
    isArchived: r.is_archived,
    trustModel: r.trust_model,
    collabMode: r.collab_mode,
    teamIds: r.team_ids ?? [],
  };
}

/** Reads for access decisions: each is a single indexed query. */
@Injectable()
export class AccessRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A repository by owner and name (case-insensitive), with `userId`'s collaboration (one round trip). */
  findByPath(ownerLowerName: string, lowerName: string, userId: number | null, db: Db = this.prisma): Promise<AccessRow | null> {
    return this.findOne(Prisma.sql`r.owner_lower_name = ${ownerLowerName} AND r.lower_name = ${lowerName}`, userId, db);
  }

  /** A repository by id, with `userId`'s collaboration. */
  findById(repoId: number, userId: number | null, db: Db = this.prisma): Promise<AccessRow | null> {
    return this.findOne(Prisma.sql`r.id = ${repoId}::int`, userId, db);
  }

  private async findOne(where: Prisma.Sql, userId: number | null, db: Db): Promise<AccessRow | null> {
    const rows = await db.$queryRaw<RawAccessRow[]>`
      SELECT r.id, r.owner_id, r.owner_name, r.owner_kind, r.name, r.default_branch, r.is_private, r.is_empty, r.is_archived,
             r.trust_model,
             c.mode AS collab_mode,
             ARRAY(SELECT tr.team_id FROM "repo".team_repos tr WHERE tr.repo_id = r.id) AS team_ids
        FROM "repo".repositories r
        LEFT JOIN "repo".collaborations c ON c.repo_id = r.id AND c.user_id = ${userId ?? -1}::int
       WHERE ${where}
       ORDER BY r.id DESC
       LIMIT 1`;
    return rows[0] ? toAccessRow(rows[0]) : null;
  }

  /** `userId`'s collaboration mode on each of `repoIds` that has one. */
  async collaborationModes(userId: number, repoIds: number[], db: Db = this.prisma): Promise<Map<number, string>> {
    if (repoIds.length === 0) return new Map();
    const rows = await db.collaboration.findMany({
      where: { userId, repoId: { in: repoIds } },
      select: { repoId: true, mode: true },
    });
    return new Map(rows.map((r) => [r.repoId, r.mode]));
  }

  /** The teams given each of `repoIds` explicitly. */
  async teamIds(repoIds: number[], db: Db = this.prisma): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (repoIds.length === 0) return out;
    const rows = await db.teamRepo.findMany({ where: { repoId: { in: repoIds } }, select: { repoId: true, teamId: true } });
    for (const r of rows) out.set(r.repoId, [...(out.get(r.repoId) ?? []), r.teamId]);
    return out;
  }
}
