import { Injectable } from '@nestjs/common';
import type { Paging } from '@cairn/contracts';
import type { Prisma, Repository } from '../../generated/prisma/client.js';
import { PrismaService, type Db, type Tx } from '../../foundation/prisma/prisma.service.js';
import type { ViewerScope } from '../../foundation/access/viewer-scope.js';

/** Only repo-service's own code sees the Prisma row. */
export type RepositoryRow = Repository;

/** Everything else takes the schema's defaults. */
export interface NewRepository {
  ownerId: number;
  ownerName: string;
  ownerKind: 'user' | 'organization';
  name: string;
  description: string;
  isPrivate: boolean;
  isEmpty: boolean;
  isTemplate: boolean;
  defaultBranch: string;
  trustModel: string;
  forkId?: number;
}

export type RepositoryChanges = Partial<
  Pick<
    Repository,
    | 'name' | 'description' | 'website' | 'isPrivate' | 'isTemplate' | 'defaultBranch' | 'isArchived' | 'archivedAt'
    | 'hasIssues' | 'hasPullRequests' | 'hasReleases' | 'hasPackages' | 'hasActions' | 'ignoreWhitespaceConflicts'
    | 'allowMergeCommits' | 'allowRebase' | 'allowRebaseExplicit' | 'allowSquashMerge' | 'allowFastForwardOnlyMerge'
    | 'allowRebaseUpdate' | 'allowManualMerge' | 'autodetectManualMerge' | 'defaultDeleteBranchAfterMerge'
    | 'defaultMergeStyle' | 'defaultAllowMaintainerEdit' | 'trustModel'
  >
>;

/** Combined with AND. */
export interface RepositoryFilter {
  scope: ViewerScope;
  /** That the scope can see. */
  includePrivate: boolean;
  ownerId?: number;
  /** Explicitly given to this team. */
  teamId?: number;
  starredBy?: number;
  /** Owned, or (unless `exclusive`) collaborated on. */
  relatedUserId?: number;
  exclusive?: boolean;
  collaborativeOnly?: boolean;
  /** As owner, collaborator, team member or organization member. */
  reachableOnly?: boolean;
  keyword?: string;
  includeDescription?: boolean;
  template?: boolean;
  archived?: boolean;
  isPrivate?: boolean;
  /** Exact, lower-case. */
  anyTopic?: string[];
  forkOf?: number;
  isFork?: boolean;
}

export type RepositoryOrder = 'alpha' | 'created' | 'updated' | 'size' | 'id';

@Injectable()
export class RepositoriesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** `watcherId` (`AUTO_WATCH_NEW_REPOS`) is written with the row and its count. */
  insert(tx: Tx, repo: NewRepository, watcherId?: number): Promise<RepositoryRow> {
    return tx.repository.create({
      data: {
        ...repo,
        isFork: repo.forkId !== undefined,
        ownerLowerName: repo.ownerName.toLowerCase(),
        lowerName: repo.name.toLowerCase(),
        ...(watcherId ? { numWatches: 1, follows: { create: { kind: 'watch', userId: watcherId } } } : {}),
      },
    });
  }

  findById(id: number, db: Db = this.prisma): Promise<RepositoryRow | null> {
    return db.repository.findUnique({ where: { id } });
  }

  countByOwner(ownerId: number, db: Db = this.prisma): Promise<number> {
    return db.repository.count({ where: { ownerId } });
  }

  async existsByName(ownerId: number, name: string, db: Db = this.prisma): Promise<boolean> {
    const row = await db.repository.findUnique({
      where: { ownerId_lowerName: { ownerId, lowerName: name.toLowerCase() } },
      select: { id: true },
    });
    return row !== null;
  }

  update(tx: Tx, id: number, changes: RepositoryChanges): Promise<RepositoryRow> {
    const data: Prisma.RepositoryUpdateInput = { ...changes };
    if (changes.name !== undefined) data.lowerName = changes.name.toLowerCase();
    return tx.repository.update({ where: { id }, data });
  }

  /** The old org's team grants go (teams belong to the owner); the new owner stops being a collaborator. */
  async transfer(tx: Tx, id: number, owner: { id: number; login: string; kind: string }): Promise<RepositoryRow> {
    await tx.teamRepo.deleteMany({ where: { repoId: id } });
    await tx.collaboration.deleteMany({ where: { repoId: id, userId: owner.id } });
    return tx.repository.update({
      where: { id },
      data: { ownerId: owner.id, ownerName: owner.login, ownerLowerName: owner.login.toLowerCase(), ownerKind: owner.kind },
    });
  }

  /** Row locked until the transaction ends (null: no such repository). */
  async lockTopics(tx: Tx, id: number): Promise<string[] | null> {
    const rows = await tx.$queryRaw<{ topics: string[] }[]>`
      SELECT topics FROM "repo".repositories WHERE id = ${id}::int FOR UPDATE`;
    return rows[0]?.topics ?? null;
  }

  /** Idempotent. */
  async grantTeam(orgId: number, teamId: number, repoId: number): Promise<void> {
    await this.prisma.teamRepo.createMany({ data: [{ orgId, teamId, repoId }], skipDuplicates: true });
  }

  /** Idempotent. */
  async revokeTeam(teamId: number, repoId: number): Promise<void> {
    await this.prisma.teamRepo.deleteMany({ where: { teamId, repoId } });
  }

  async teamHas(teamId: number, repoId: number): Promise<boolean> {
    return (await this.prisma.teamRepo.count({ where: { teamId, repoId } })) > 0;
  }

  /** Sorted by name, as Gitea lists them. */
  async setTopics(db: Db, id: number, topics: string[]): Promise<void> {
    await db.repository.update({ where: { id }, data: { topics: [...topics].sort() } });
  }

  /** As Gitea: forks stand alone, the parent has one fork less. */
  async delete(tx: Tx, id: number): Promise<void> {
    const row = await tx.repository.delete({ where: { id } });
    await tx.repository.updateMany({ where: { forkId: id }, data: { isFork: false, forkId: null } });
    if (row.forkId !== null) {
      await tx.repository.updateMany({ where: { id: row.forkId, numForks: { gt: 0 } }, data: { numForks: { decrement: 1 } } });
    }
  }

  countFork(tx: Tx, id: number): Promise<RepositoryRow> {
    return tx.repository.update({ where: { id }, data: { numForks: { increment: 1 } } });
  }

  async hasFork(ownerId: number, forkId: number, db: Db = this.prisma): Promise<boolean> {
    return (await db.repository.count({ where: { ownerId, forkId } })) > 0;
  }

  findForkByOwnerName(ownerLogin: string, parentId: number, db: Db = this.prisma): Promise<RepositoryRow | null> {
    return db.repository.findFirst({ where: { ownerLowerName: ownerLogin.toLowerCase(), forkId: parentId } });
  }

  /** `priorityOwnerId` sorts that owner first (Gitea's `CASE WHEN owner_id = …`); the page is cut from both parts. */
  async list(
    filter: RepositoryFilter,
    paging: Paging,
    order: RepositoryOrder = 'id',
    desc = false,
    priorityOwnerId?: number,
  ): Promise<{ items: RepositoryRow[]; total: number }> {
    if (!priorityOwnerId) return this.listOrdered(this.where(filter), paging, order, desc);
    const base = this.where(filter);
    const first = await this.listOrdered({ AND: [base, { ownerId: priorityOwnerId }] }, paging, order, desc);
    const restSkip = Math.max(0, paging.skip - first.total);
    const restTake = paging.take - first.items.length;
    const rest = await this.listOrdered(
      { AND: [base, { ownerId: { not: priorityOwnerId } }] },
      { ...paging, skip: restSkip, take: Math.max(restTake, 0) },
      order,
      desc,
    );
    return { items: [...first.items, ...(restTake > 0 ? rest.items : [])], total: first.total + rest.total };
  }

  private async listOrdered(where: Prisma.RepositoryWhereInput, paging: Paging, order: RepositoryOrder, desc: boolean) {
    const direction: Prisma.SortOrder = desc ? 'desc' : 'asc';
    const orderBy: Prisma.RepositoryOrderByWithRelationInput[] = {
      alpha: [{ lowerName: direction }, { ownerLowerName: direction }],
      created: [{ createdAt: direction }],
      updated: [{ updatedAt: direction }],
      size: [{ size: direction }],
      id: [],
    }[order];
    orderBy.push({ id: direction });
    const [items, total] = await Promise.all([
      this.prisma.repository.findMany({ where, orderBy, skip: paging.skip, take: paging.take }),
      this.prisma.repository.count({ where }),
    ]);
    return { items, total };
  }

  private where(f: RepositoryFilter): Prisma.RepositoryWhereInput {
    const and: Prisma.RepositoryWhereInput[] = [this.visible(f.scope, f.includePrivate)];
    if (f.ownerId !== undefined) and.push({ ownerId: f.ownerId });
    if (f.relatedUserId !== undefined) {
      const uid = f.relatedUserId;
      if (f.collaborativeOnly) and.push({ ownerId: { not: uid }, collaborations: { some: { userId: uid } } });
      else if (f.exclusive) and.push({ ownerId: uid });
      else and.push({ OR: [{ ownerId: uid }, { collaborations: { some: { userId: uid } } }] });
    }
    if (f.reachableOnly) and.push(this.reachable(f.scope));
    if (f.keyword) {
      const kw = f.keyword.toLowerCase();
      and.push(
        f.includeDescription
          ? { OR: [{ lowerName: { contains: kw } }, { description: { contains: f.keyword, mode: 'insensitive' } }] }
          : { lowerName: { contains: kw } },
      );
    }
    if (f.teamId !== undefined) and.push({ teamRepos: { some: { teamId: f.teamId } } });
    if (f.starredBy !== undefined) and.push({ follows: { some: { kind: 'star', userId: f.starredBy } } });
    if (f.template !== undefined) and.push({ isTemplate: f.template });
    if (f.archived !== undefined) and.push({ isArchived: f.archived });
    if (f.isPrivate !== undefined) and.push({ isPrivate: f.isPrivate });
    if (f.anyTopic) and.push({ topics: { hasSome: f.anyTopic } });
    if (f.forkOf !== undefined) and.push({ forkId: f.forkOf });
    if (f.isFork !== undefined) and.push({ isFork: f.isFork });
    return { AND: and };
  }

  /** Site admins: all. */
  private visible(scope: ViewerScope, includePrivate: boolean): Prisma.RepositoryWhereInput {
    if (!includePrivate || scope.userId === null || scope.mustEnrolTwoFactor) return { isPrivate: false };
    if (scope.isAdmin) return {};
    return { OR: [{ isPrivate: false }, this.reachable(scope)] };
  }

  /**
   * Gitea's "collaborative" set of `GET /user/repos`: owned, collaborated, owned org or all-repos team, team-given, or
   * public in a member org.
   */
  private reachable(scope: ViewerScope): Prisma.RepositoryWhereInput {
    if (scope.userId === null) return { id: -1 };
    const or: Prisma.RepositoryWhereInput[] = [
      { ownerId: scope.userId },
      { collaborations: { some: { userId: scope.userId } } },
    ];
    if (scope.fullOrgIds.length) or.push({ ownerId: { in: scope.fullOrgIds } });
    if (scope.teamIds.length) or.push({ teamRepos: { some: { teamId: { in: scope.teamIds } } } });
    if (scope.memberOrgIds.length) or.push({ ownerId: { in: scope.memberOrgIds }, isPrivate: false });
    return { OR: or };
  }
}
