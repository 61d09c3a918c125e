import { Injectable } from '@nestjs/common';
import { Prisma, type OrgUser, type Team, type User } from '../generated/prisma/client.js';
import { IDENTITY_SCHEMA, PrismaService, type Db, type Tx } from '../prisma/prisma.service.js';
import type { UserOrgLinks } from '../users/account-links.js';

export type TeamRow = Team;
export type OrgRow = User;
export type OrgUserRow = OrgUser;

export interface NewOrg {
  name: string;
  fullName: string;
  email: string;
  description: string;
  website: string;
  location: string;
  visibility: string;
  repoAdminChangeTeamAccess: boolean;
}

export interface NewTeam {
  orgId: number;
  name: string;
  description: string;
  permission: string;
  includesAllRepositories: boolean;
  canCreateOrgRepo: boolean;
  units: string[];
  unitsMap?: Record<string, string>;
}

export type OrgChanges = Partial<Omit<NewOrg, 'name'>>;

export type TeamChanges = Partial<Omit<NewTeam, 'orgId'>>;

export interface OrgVisibilityFilter {
  /** Visibilities visible to anyone in the listing. */
  visibilities: string[];
  /** Private organizations of which this user is a member are visible too. */
  memberId?: number;
  all?: boolean;
}

const TEAMS = Prisma.raw(`"${IDENTITY_SCHEMA}"."teams"`);
const TEAM_USERS = Prisma.raw(`"${IDENTITY_SCHEMA}"."team_users"`);

@Injectable()
export class OrgsRepository implements UserOrgLinks {
  constructor(private readonly prisma: PrismaService) {}

  async findOrgByName(name: string, db: Db = this.prisma): Promise<OrgRow | null> {
    const row = await db.user.findUnique({ where: { lowerName: name.toLowerCase() } });
    return row?.type === 'organization' ? row : null;
  }

  async findOrgById(id: number, db: Db = this.prisma): Promise<OrgRow | null> {
    const row = await db.user.findUnique({ where: { id } });
    return row?.type === 'organization' ? row : null;
  }

  createOrg(tx: Tx, o: NewOrg): Promise<OrgRow> {
    return tx.user.create({
      data: { type: 'organization', lowerName: o.name.toLowerCase(), ...o },
    });
  }

  /** Deletes the organization (only while it still is one); false when there was nothing to delete. */
  async deleteOrg(tx: Tx, id: number): Promise<boolean> {
    const { count } = await tx.user.deleteMany({ where: { id, type: 'organization' } });
    return count > 0;
  }

  createTeam(tx: Tx, t: NewTeam): Promise<TeamRow> {
    return tx.team.create({ data: { ...t, lowerName: t.name.toLowerCase() } });
  }

  updateOrg(tx: Tx, id: number, changes: OrgChanges): Promise<OrgRow> {
    return tx.user.update({ where: { id }, data: changes });
  }

  updateTeam(tx: Tx, id: number, changes: TeamChanges): Promise<TeamRow> {
    const data = changes.name === undefined ? changes : { ...changes, lowerName: changes.name.toLowerCase() };
    return tx.team.update({ where: { id }, data });
  }

  /** Deletes a team (its memberships cascade); answers the ids of its former members. */
  async deleteTeam(tx: Tx, id: number): Promise<number[]> {
    const members = await tx.teamUser.findMany({ where: { teamId: id }, select: { userId: true } });
    await tx.team.delete({ where: { id } });
    return members.map((m) => m.userId);
  }

  findTeam(id: number, db: Db = this.prisma): Promise<TeamRow | null> {
    return db.team.findUnique({ where: { id } });
  }

  findTeamByName(orgId: number, name: string, db: Db = this.prisma): Promise<TeamRow | null> {
    return db.team.findUnique({ where: { orgId_lowerName: { orgId, lowerName: name.toLowerCase() } } });
  }

  ownersTeam(orgId: number, db: Db = this.prisma): Promise<TeamRow | null> {
    return db.team.findFirst({ where: { orgId, permission: 'owner' }, orderBy: { id: 'asc' } });
  }

  async listTeams(orgId: number, skip: number, take: number): Promise<{ rows: TeamRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.prisma.team.findMany({ where: { orgId }, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.team.count({ where: { orgId } }),
    ]);
    return { rows, total };
  }

  /** Teams named (lower-cased), given by id, or including all repositories; at most `take`, by id. */
  findTeams(orgId: number, f: { lowerNames: string[]; ids: number[]; includingAll: boolean }, take: number): Promise<TeamRow[]> {
    const or: Prisma.TeamWhereInput[] = [];
    if (f.lowerNames.length) or.push({ lowerName: { in: f.lowerNames } });
    if (f.ids.length) or.push({ id: { in: f.ids } });
    if (f.includingAll) or.push({ includesAllRepositories: true });
    if (!or.length) return Promise.resolve([]);
    return this.prisma.team.findMany({ where: { orgId, OR: or }, orderBy: { id: 'asc' }, take });
  }

  /** The first `perTeam` member ids (by id) of each team, in one query. */
  async memberIdsOf(teamIds: number[], perTeam: number): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(teamIds.map((id) => [id, []]));
    if (!teamIds.length) return out;
    const rows = await this.prisma.$queryRaw<Array<{ team_id: number; user_id: number }>>`
      SELECT team_id, user_id FROM (
        SELECT team_id, user_id, row_number() OVER (PARTITION BY team_id ORDER BY user_id) AS n
        FROM ${TEAM_USERS} WHERE team_id = ANY(${teamIds}::int[])
      ) ranked WHERE n <= ${perTeam} ORDER BY team_id, user_id`;
    for (const r of rows) out.get(r.team_id)?.push(r.user_id);
    return out;
  }

  teamsOfUser(orgId: number, userId: number, db: Db = this.prisma): Promise<TeamRow[]> {
    return db.team.findMany({ where: { orgId, members: { some: { userId } } }, orderBy: { id: 'asc' } });
  }

  /** Every team of every organization the user is in (one query), for standings across organizations. */
  teamsOfUserEverywhere(userId: number, db: Db = this.prisma): Promise<TeamRow[]> {
    return db.team.findMany({ where: { members: { some: { userId } } }, orderBy: [{ orgId: 'asc' }, { id: 'asc' }] });
  }

  orgUser(orgId: number, userId: number, db: Db = this.prisma): Promise<OrgUserRow | null> {
    return db.orgUser.findUnique({ where: { orgId_userId: { orgId, userId } } });
  }

  async isTeamMember(teamId: number, userId: number, db: Db = this.prisma): Promise<boolean> {
    return (await db.teamUser.count({ where: { teamId, userId } })) > 0;
  }

  countTeamMembers(teamId: number, db: Db = this.prisma): Promise<number> {
    return db.teamUser.count({ where: { teamId } });
  }

  async listTeamMembers(teamId: number, skip: number, take: number): Promise<{ rows: User[]; total: number }> {
    const where: Prisma.UserWhereInput = { teamMemberships: { some: { teamId } } };
    const [rows, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.user.count({ where }),
    ]);
    return { rows, total };
  }

  /** Locks a team row until the transaction ends: serialises changes to the Owners team ("last owner" rule). */
  async lockTeam(tx: Tx, teamId: number): Promise<void> {
    await tx.$queryRaw`SELECT id FROM ${TEAMS} WHERE id = ${teamId} FOR UPDATE`;
  }

  async lockOwnerTeamsOf(tx: Tx, userId: number): Promise<Array<{ teamId: number; orgId: number; members: number }>> {
    const teams = await tx.team.findMany({
      where: { permission: 'owner', members: { some: { userId } } },
      select: { id: true, orgId: true },
      orderBy: { id: 'asc' },
    });
    const out = [];
    for (const t of teams) {
      await this.lockTeam(tx, t.id);
      out.push({ teamId: t.id, orgId: t.orgId, members: await this.countTeamMembers(t.id, tx) });
    }
    return out;
  }

  async addTeamMember(tx: Tx, team: TeamRow, userId: number): Promise<boolean> {
    const res = await tx.teamUser.createMany({
      data: [{ teamId: team.id, userId, orgId: team.orgId }],
      skipDuplicates: true,
    });
    return res.count > 0;
  }

  async ensureOrgUser(tx: Tx, orgId: number, userId: number): Promise<boolean> {
    const res = await tx.orgUser.createMany({ data: [{ orgId, userId, isPublic: false }], skipDuplicates: true });
    return res.count > 0;
  }

  async removeTeamMember(tx: Tx, teamId: number, userId: number): Promise<boolean> {
    const res = await tx.teamUser.deleteMany({ where: { teamId, userId } });
    return res.count > 0;
  }

  async removeFromAllTeams(tx: Tx, orgId: number, userId: number): Promise<number> {
    return (await tx.teamUser.deleteMany({ where: { orgId, userId } })).count;
  }

  async countUserTeamsInOrg(tx: Tx, orgId: number, userId: number): Promise<number> {
    return tx.teamUser.count({ where: { orgId, userId } });
  }

  async removeOrgUser(tx: Tx, orgId: number, userId: number): Promise<boolean> {
    return (await tx.orgUser.deleteMany({ where: { orgId, userId } })).count > 0;
  }

  async setPublic(orgId: number, userId: number, isPublic: boolean): Promise<void> {
    await this.prisma.orgUser.update({ where: { orgId_userId: { orgId, userId } }, data: { isPublic } });
  }

  async listMembers(orgId: number, onlyPublic: boolean, skip: number, take: number): Promise<{ rows: User[]; total: number }> {
    const where: Prisma.UserWhereInput = {
      orgMemberships: { some: { orgId, ...(onlyPublic ? { isPublic: true } : {}) } },
    };
    const [rows, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.user.count({ where }),
    ]);
    return { rows, total };
  }

  async orgIdsOf(userId: number, db: Db = this.prisma): Promise<number[]> {
    const rows = await db.orgUser.findMany({ where: { userId }, select: { orgId: true } });
    return rows.map((r) => r.orgId);
  }

  private visibleWhere(f: OrgVisibilityFilter): Prisma.UserWhereInput {
    if (f.all) return {};
    const or: Prisma.UserWhereInput[] = [{ visibility: { in: f.visibilities } }];
    if (f.memberId !== undefined) or.push({ orgMembers: { some: { userId: f.memberId } } });
    return { OR: or };
  }

  async listOrgs(f: OrgVisibilityFilter, skip: number, take: number): Promise<{ rows: OrgRow[]; total: number }> {
    const where: Prisma.UserWhereInput = { AND: [{ type: 'organization' }, this.visibleWhere(f)] };
    const [rows, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: { lowerName: 'asc' }, skip, take }),
      this.prisma.user.count({ where }),
    ]);
    return { rows, total };
  }

  /** `onlyPublic`: only memberships the user made public, in organizations visible under `f`. */
  async listOrgsOfUser(
    userId: number,
    onlyPublic: boolean,
    f: OrgVisibilityFilter,
    skip: number,
    take: number,
  ): Promise<{ rows: OrgRow[]; total: number }> {
    const and: Prisma.UserWhereInput[] = [
      { type: 'organization' },
      { orgMembers: { some: { userId, ...(onlyPublic ? { isPublic: true } : {}) } } },
    ];
    if (onlyPublic) and.push(this.visibleWhere(f));
    const where: Prisma.UserWhereInput = { AND: and };
    const [rows, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: { lowerName: 'asc' }, skip, take }),
      this.prisma.user.count({ where }),
    ]);
    return { rows, total };
  }
}
