import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, IdentityEvents, TEAM_PERMISSIONS, TEAM_UNITS, invalidNameReason, toPaging,
  type AccountDeletedData, type ActorDto, type CreateOrgBody, type CreateTeamBody, type EditOrgBody, type EditTeamBody,
  type ListQuery, type OrgMembershipReply, type OrganizationDto, type OrganizationPermissionsDto,
  type Paginated, type TeamDto, type TeamPermission, type UserDto,
  TEAM_LOOKUP_MAX, TEAM_LOOKUP_MEMBERS_MAX, type TeamLookupReply, type TeamLookupRequest,
} from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings, uniqueViolation } from '@cairn/platform';
import { EventPublisher } from '../common/event-publisher.js';
import { canSeeOrg, canSeeUser, visibleToViewer } from '../common/visibility.js';
import type { Tx } from '../prisma/prisma.service.js';
import { Transactions } from '../prisma/transactions.js';
import { toUserDto } from '../users/user.mapper.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { duplicateAccountError } from '../users/users.service.js';
import { toOrganizationDto, toTeamDto, unitsMapOf } from './org.mapper.js';
import { OrgsRepository, type OrgChanges, type OrgRow, type TeamChanges, type TeamRow } from './orgs.repository.js';
import { resolveTeamUnits } from './team-units.js';

/** Gitea's `AlphaDashDot` binding for team names. */
const TEAM_NAME = /^[A-Za-z0-9_.-]+$/;

const MUST_BE_OWNER = 'Must be an organization owner';
const MUST_BE_MEMBER = 'Must be an organization member';

interface OrgContext {
  org: OrgRow;
  isMember: boolean;
}

@Injectable()
export class OrgsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly orgs: OrgsRepository,
    private readonly users: UsersRepository,
    private readonly events: EventPublisher,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  private orgDto(row: OrgRow): OrganizationDto {
    return toOrganizationDto(row, this.common.rootUrl);
  }

  private userDto(row: UserRow, viewer: ActorDto | null): UserDto {
    return toUserDto(row, { rootUrl: this.common.rootUrl, viewer });
  }

  /** The organization if the actor may see it; otherwise NOT_FOUND, as if it did not exist. */
  private async visibleOrg(actor: ActorDto | null, name: string): Promise<OrgContext> {
    const org = await this.orgs.findOrgByName(name);
    if (!org) throw DomainError.notFound(`organization "${name}" does not exist`);
    const isMember = actor ? (await this.orgs.orgUser(org.id, actor.id)) !== null : false;
    if (!canSeeOrg(actor, org, isMember)) throw DomainError.notFound(`organization "${name}" does not exist`);
    return { org, isMember };
  }

  private async visibleTeam(actor: ActorDto, teamId: number): Promise<OrgContext & { team: TeamRow }> {
    const team = await this.orgs.findTeam(teamId);
    const org = team ? await this.orgs.findOrgById(team.orgId) : null;
    if (!team || !org) throw DomainError.notFound(`team ${teamId} does not exist`);
    const isMember = (await this.orgs.orgUser(org.id, actor.id)) !== null;
    if (!canSeeOrg(actor, org, isMember)) throw DomainError.notFound(`team ${teamId} does not exist`);
    return { org, isMember, team };
  }

  private async isOwner(orgId: number, userId: number): Promise<boolean> {
    const owners = await this.orgs.ownersTeam(orgId);
    return owners !== null && (await this.orgs.isTeamMember(owners.id, userId));
  }

  private async requireOwner(actor: ActorDto, orgId: number): Promise<void> {
    if (actor.isAdmin) return;
    if (!(await this.isOwner(orgId, actor.id))) throw DomainError.forbidden(MUST_BE_OWNER);
  }

  private requireMember(actor: ActorDto, ctx: OrgContext): void {
    if (!actor.isAdmin && !ctx.isMember) throw DomainError.forbidden(MUST_BE_MEMBER);
  }

  private async targetUser(username: string): Promise<UserRow> {
    const user = await this.users.findUserByName(username);
    if (!user) throw DomainError.notFound(`user "${username}" does not exist`);
    return user;
  }


  /** Creates an organization with its Owners team, the creator (or, for admins, `username`) as its only member. */
  async create(actor: ActorDto, body: CreateOrgBody, username?: string): Promise<OrganizationDto> {
    let owner: UserRow;
    if (username !== undefined && username.toLowerCase() !== actor.login.toLowerCase()) {
      if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
      owner = await this.targetUser(username);
    } else {
      const self = await this.users.findById(actor.id);
      if (!self || self.type !== 'user') throw DomainError.notFound('user does not exist');
      owner = self;
    }
    if (!actor.isAdmin && !owner.allowCreateOrganization) {
      throw DomainError.forbidden('user is not allowed to create organizations');
    }
    const reason = invalidNameReason(body.username);
    if (reason) throw DomainError.unprocessable(`invalid organization name: ${reason}`);
    if (await this.users.nameTaken(body.username)) throw DomainError.unprocessable('user already exists');
    let org: OrgRow;
    try {
      org = await this.transactions.run(async (tx) => {
        const created = await this.orgs.createOrg(tx, {
          name: body.username,
          fullName: body.full_name ?? '',
          email: body.email ?? '',
          description: body.description ?? '',
          website: body.website ?? '',
          location: body.location ?? '',
          visibility: body.visibility || 'public',
          repoAdminChangeTeamAccess: body.repo_admin_change_team_access ?? false,
        });
        const owners = await this.orgs.createTeam(tx, {
          orgId: created.id,
          name: 'Owners',
          description: '',
          permission: 'owner',
          includesAllRepositories: true,
          canCreateOrgRepo: true,
          units: [...TEAM_UNITS],
        });
        await this.orgs.addTeamMember(tx, owners, owner.id);
        await this.orgs.ensureOrgUser(tx, created.id, owner.id);
        await this.events.record(tx, IdentityEvents.orgCreated, {
          id: created.id,
          name: created.name,
          visibility: created.visibility,
          ownerId: owner.id,
        });
        await this.memberAddedEvent(tx, created, owner);
        return created;
      });
    } catch (err) {
      throw duplicateAccountError(err) ?? err;
    }
    this.events.kick();
    return this.orgDto(org);
  }

  async get(actor: ActorDto | null, name: string): Promise<OrganizationDto> {
    return this.orgDto((await this.visibleOrg(actor, name)).org);
  }

  /** `PATCH /orgs/{org}` (owners and site admins): absent fields, an empty visibility and an empty email stay. */
  async edit(actor: ActorDto, name: string, body: EditOrgBody): Promise<OrganizationDto> {
    const { org } = await this.visibleOrg(actor, name);
    await this.requireOwner(actor, org.id);
    const changes: OrgChanges = {
      fullName: body.full_name,
      description: body.description,
      website: body.website,
      location: body.location,
      email: body.email || undefined,
      visibility: body.visibility || undefined,
      repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
    };
    const updated = await this.transactions.run((tx) => this.orgs.updateOrg(tx, org.id, changes));
    return this.orgDto(updated);
  }

  // Refused while it owns repositories (`ErrUserOwnRepos`); repo-service is asked outside the transaction, so one
  // created meanwhile is not seen. `identity.evt.user.deleted` tells the other services to drop what it owned.
  async delete(actor: ActorDto, name: string, countRepositories: (orgId: number) => Promise<number>): Promise<void> {
    const { org } = await this.visibleOrg(actor, name);
    await this.requireOwner(actor, org.id);
    if ((await countRepositories(org.id)) > 0) {
      throw DomainError.unprocessable(
        `organization "${org.name}" still owns repositories: delete or transfer them first`,
      );
    }
    await this.transactions.run(async (tx) => {
      // Type-checked delete: a concurrent deletion (or a rename into a user) leaves nothing to delete.
      if (!(await this.orgs.deleteOrg(tx, org.id))) throw DomainError.notFound(`organization "${name}" does not exist`);
      const data: AccountDeletedData = { id: org.id, login: org.name, kind: 'organization' };
      await this.events.record(tx, IdentityEvents.userDeleted, data);
    });
    this.events.kick();
  }

  /** All organizations the actor may see, or those of a user (all for the user and admins, public ones for others). */
  async list(actor: ActorDto | null, username: string | undefined, query: ListQuery): Promise<Paginated<OrganizationDto>> {
    const paging = toPaging(query);
    const filter = { visibilities: visibleToViewer(actor), memberId: actor?.id, all: actor?.isAdmin ?? false };
    let page;
    if (username === undefined) {
      page = await this.orgs.listOrgs(filter, paging.skip, paging.take);
    } else {
      const user = await this.users.findUserByName(username);
      if (!user || !canSeeUser(actor, user)) throw DomainError.notFound(`user "${username}" does not exist`);
      const everything = actor !== null && (actor.isAdmin || actor.id === user.id);
      page = await this.orgs.listOrgsOfUser(user.id, !everything, filter, paging.skip, paging.take);
    }
    return { items: page.rows.map((r) => this.orgDto(r)), total: page.total };
  }

  /** `identity.team.lookup`: teams of one organization for other services (bounded; no actor, no visibility rule). */
  async lookupTeams(req: TeamLookupRequest): Promise<TeamLookupReply> {
    const rows = await this.orgs.findTeams(
      req.orgId,
      {
        lowerNames: [...new Set((req.names ?? []).map((n) => n.toLowerCase()))],
        ids: [...new Set(req.ids ?? [])],
        includingAll: req.includingAll === true,
      },
      TEAM_LOOKUP_MAX,
    );
    const [members, orgRow] = await Promise.all([
      req.withMembers ? this.orgs.memberIdsOf(rows.map((t) => t.id), TEAM_LOOKUP_MEMBERS_MAX) : null,
      req.withOrganization && rows.length ? this.orgs.findOrgById(req.orgId) : null,
    ]);
    const org = orgRow ? this.orgDto(orgRow) : null;
    return {
      teams: rows.map((row) => ({ team: toTeamDto(row, org), ...(members ? { memberIds: members.get(row.id) ?? [] } : {}) })),
    };
  }

  async membership(orgId: number, userId: number): Promise<OrgMembershipReply> {
    const member = await this.orgs.orgUser(orgId, userId);
    if (!member) return { isMember: false, isOwner: false, teams: [] };
    return standingFrom(await this.orgs.teamsOfUser(orgId, userId));
  }

  /** Gitea's `GetUserOrgsPermissions`: the user's highest team permission in an org the actor can see. */
  async userPermissions(actor: ActorDto, name: string, username: string): Promise<OrganizationPermissionsDto> {
    const user = await this.targetUser(username);
    const { org } = await this.visibleOrg(actor, name);
    const standing = await this.membership(org.id, user.id);
    const level = Math.max(
      standing.isOwner ? TEAM_PERMISSIONS.indexOf('owner') : 0,
      ...standing.teams.map((t) => TEAM_PERMISSIONS.indexOf(t.permission)),
    );
    const atLeast = (p: TeamPermission) => level >= TEAM_PERMISSIONS.indexOf(p);
    return {
      is_owner: standing.isOwner,
      is_admin: atLeast('admin'),
      can_write: atLeast('write'),
      can_read: atLeast('read'),
      can_create_repository: standing.isOwner || standing.teams.some((t) => t.canCreateOrgRepo),
    };
  }

  /** The user's standing in every organization they belong to: two queries, whatever the number of organizations. */
  async standings(userId: number): Promise<Array<{ orgId: number } & OrgMembershipReply>> {
    const [orgIds, teams] = await Promise.all([this.orgs.orgIdsOf(userId), this.orgs.teamsOfUserEverywhere(userId)]);
    return orgIds.map((orgId) => ({ orgId, ...standingFrom(teams.filter((t) => t.orgId === orgId)) }));
  }


  async listTeams(actor: ActorDto, name: string, query: ListQuery): Promise<Paginated<TeamDto>> {
    const ctx = await this.visibleOrg(actor, name);
    this.requireMember(actor, ctx);
    const paging = toPaging(query);
    const { rows, total } = await this.orgs.listTeams(ctx.org.id, paging.skip, paging.take);
    return { items: rows.map((t) => toTeamDto(t, null)), total };
  }

  async createTeam(actor: ActorDto, name: string, body: CreateTeamBody): Promise<TeamDto> {
    const { org } = await this.visibleOrg(actor, name);
    await this.requireOwner(actor, org.id);
    const teamName = this.validTeamName(body.name);
    if (await this.orgs.findTeamByName(org.id, teamName)) throw DomainError.unprocessable('team already exists');
    // Without units or units_map a team gets every unit (Gitea refuses such a request with a 500).
    const units = resolveTeamUnits(body.permission ?? 'read', body, { units: [...TEAM_UNITS], unitsMap: {} });
    try {
      const team = await this.transactions.run((tx) =>
        this.orgs.createTeam(tx, {
          orgId: org.id,
          name: teamName,
          description: body.description ?? '',
          includesAllRepositories: body.includes_all_repositories ?? false,
          canCreateOrgRepo: body.can_create_org_repo ?? false,
          ...units,
        }),
      );
      return toTeamDto(team, this.orgDto(org));
    } catch (err) {
      if (uniqueViolation(err)?.includes('lower_name')) throw DomainError.unprocessable('team already exists');
      throw err;
    }
  }

  async getTeam(actor: ActorDto, teamId: number): Promise<TeamDto> {
    const ctx = await this.visibleTeam(actor, teamId);
    this.requireMember(actor, ctx);
    return toTeamDto(ctx.team, this.orgDto(ctx.org));
  }

  /** As Gitea's `EditTeam`: an empty name is ignored; the Owners team keeps its permission and all repositories. */
  async editTeam(actor: ActorDto, teamId: number, body: EditTeamBody): Promise<TeamDto> {
    const { org, team } = await this.visibleTeam(actor, teamId);
    await this.requireOwner(actor, org.id);
    const isOwners = team.permission === 'owner';
    const changes: TeamChanges = { description: body.description };
    if (body.name) {
      const teamName = this.validTeamName(body.name);
      const other = await this.orgs.findTeamByName(org.id, teamName);
      if (other && other.id !== team.id) throw DomainError.unprocessable('team already exists');
      changes.name = teamName;
    }
    if (body.can_create_org_repo !== undefined) changes.canCreateOrgRepo = isOwners || body.can_create_org_repo;
    if (!isOwners) {
      if (body.includes_all_repositories !== undefined) changes.includesAllRepositories = body.includes_all_repositories;
      const requested = (body.permission || team.permission) as TeamPermission;
      Object.assign(changes, resolveTeamUnits(requested, body, { units: team.units, unitsMap: unitsMapOf(team) }));
    }
    try {
      const updated = await this.transactions.run((tx) => this.orgs.updateTeam(tx, team.id, changes));
      return toTeamDto(updated, this.orgDto(org));
    } catch (err) {
      if (uniqueViolation(err)?.includes('lower_name')) throw DomainError.unprocessable('team already exists');
      throw err;
    }
  }

  /** Members left teamless leave the organization; the team's grants need no cleanup: team ids are never reused. */
  async deleteTeam(actor: ActorDto, teamId: number): Promise<void> {
    const { org, team } = await this.visibleTeam(actor, teamId);
    await this.requireOwner(actor, org.id);
    if (team.permission === 'owner') throw DomainError.unprocessable('the Owners team cannot be deleted');
    await this.transactions.run(async (tx) => {
      const former = await this.orgs.deleteTeam(tx, team.id);
      for (const userId of former) {
        if ((await this.orgs.countUserTeamsInOrg(tx, org.id, userId)) > 0) continue;
        if (!(await this.orgs.removeOrgUser(tx, org.id, userId))) continue;
        const user = await this.users.findById(userId, tx);
        if (user) await this.memberRemovedEvent(tx, org, user);
      }
    });
    this.events.kick();
  }

  /** `GET /teams/{id}/members/{username}`: the user when they are in the team (org members and admins ask). */
  async getTeamMember(actor: ActorDto, teamId: number, username: string): Promise<UserDto> {
    const ctx = await this.visibleTeam(actor, teamId);
    this.requireMember(actor, ctx);
    const user = await this.targetUser(username);
    if (!(await this.orgs.isTeamMember(teamId, user.id))) {
      throw DomainError.notFound(`user "${username}" is not a member of team ${teamId}`);
    }
    return this.userDto(user, actor);
  }

  private validTeamName(name: string): string {
    const teamName = name.trim();
    if (!TEAM_NAME.test(teamName)) {
      throw DomainError.unprocessable('invalid team name: only alphanumerics, dashes, underscores and dots are allowed');
    }
    return teamName;
  }

  async listTeamMembers(actor: ActorDto, teamId: number, query: ListQuery): Promise<Paginated<UserDto>> {
    const ctx = await this.visibleTeam(actor, teamId);
    this.requireMember(actor, ctx);
    const paging = toPaging(query);
    const { rows, total } = await this.orgs.listTeamMembers(teamId, paging.skip, paging.take);
    return { items: rows.map((u) => this.userDto(u, actor)), total };
  }

  async addTeamMember(actor: ActorDto, teamId: number, username: string): Promise<void> {
    const { org, team } = await this.visibleTeam(actor, teamId);
    await this.requireOwner(actor, org.id);
    const user = await this.targetUser(username);
    await this.transactions.run(async (tx) => {
      await this.orgs.addTeamMember(tx, team, user.id);
      if (await this.orgs.ensureOrgUser(tx, org.id, user.id)) await this.memberAddedEvent(tx, org, user);
    });
    this.events.kick();
  }

  async removeTeamMember(actor: ActorDto, teamId: number, username: string): Promise<void> {
    const { org, team } = await this.visibleTeam(actor, teamId);
    await this.requireOwner(actor, org.id);
    const user = await this.targetUser(username);
    await this.transactions.run(async (tx) => {
      if (team.permission === 'owner') {
        await this.orgs.lockTeam(tx, team.id);
        if ((await this.orgs.isTeamMember(team.id, user.id, tx)) && (await this.orgs.countTeamMembers(team.id, tx)) <= 1) {
          throw DomainError.unprocessable('cannot remove the last owner');
        }
      }
      if (!(await this.orgs.removeTeamMember(tx, team.id, user.id))) return;
      // Leaving the last team means leaving the organization.
      if ((await this.orgs.countUserTeamsInOrg(tx, org.id, user.id)) === 0) {
        if (await this.orgs.removeOrgUser(tx, org.id, user.id)) await this.memberRemovedEvent(tx, org, user);
      }
    });
    this.events.kick();
  }


  /** Members and admins see every member; everyone else only the public ones. */
  async listMembers(actor: ActorDto | null, name: string, query: ListQuery): Promise<Paginated<UserDto>> {
    const ctx = await this.visibleOrg(actor, name);
    const all = actor !== null && (actor.isAdmin || ctx.isMember);
    const paging = toPaging(query);
    const { rows, total } = await this.orgs.listMembers(ctx.org.id, !all, paging.skip, paging.take);
    return { items: rows.map((u) => this.userDto(u, actor)), total };
  }

  /** Is `username` a member? To non-members, only public membership is revealed (Gitea redirects them there). */
  async checkMember(actor: ActorDto | null, name: string, username: string): Promise<boolean> {
    const ctx = await this.visibleOrg(actor, name);
    const user = await this.users.findUserByName(username);
    if (!user) return false;
    const membership = await this.orgs.orgUser(ctx.org.id, user.id);
    if (!membership) return false;
    const seesAll = actor !== null && (actor.isAdmin || ctx.isMember);
    return seesAll || membership.isPublic;
  }

  /** Removes a user from every team of the organization (owners and admins); the last owner stays. */
  async removeMember(actor: ActorDto, name: string, username: string): Promise<void> {
    const { org } = await this.visibleOrg(actor, name);
    await this.requireOwner(actor, org.id);
    const user = await this.targetUser(username);
    await this.transactions.run(async (tx) => {
      const owners = await this.orgs.ownersTeam(org.id, tx);
      if (owners) {
        await this.orgs.lockTeam(tx, owners.id);
        if ((await this.orgs.isTeamMember(owners.id, user.id, tx)) && (await this.orgs.countTeamMembers(owners.id, tx)) <= 1) {
          throw DomainError.unprocessable('cannot remove the last owner');
        }
      }
      await this.orgs.removeFromAllTeams(tx, org.id, user.id);
      if (await this.orgs.removeOrgUser(tx, org.id, user.id)) await this.memberRemovedEvent(tx, org, user);
    });
    this.events.kick();
  }

  async listPublicMembers(actor: ActorDto | null, name: string, query: ListQuery): Promise<Paginated<UserDto>> {
    const ctx = await this.visibleOrg(actor, name);
    const paging = toPaging(query);
    const { rows, total } = await this.orgs.listMembers(ctx.org.id, true, paging.skip, paging.take);
    return { items: rows.map((u) => this.userDto(u, actor)), total };
  }

  async checkPublicMember(actor: ActorDto | null, name: string, username: string): Promise<boolean> {
    const ctx = await this.visibleOrg(actor, name);
    const user = await this.users.findUserByName(username);
    if (!user) return false;
    return (await this.orgs.orgUser(ctx.org.id, user.id))?.isPublic ?? false;
  }

  /** A non-member target is NOT_FOUND (Gitea answers a silent 204); other callers get one refusal for all. */
  async setPublicMember(actor: ActorDto, name: string, username: string, isPublic: boolean): Promise<void> {
    const ctx = await this.visibleOrg(actor, name);
    const user = await this.targetUser(username);
    if (user.id !== actor.id && !actor.isAdmin && !(await this.isOwner(ctx.org.id, actor.id))) {
      throw DomainError.forbidden('Cannot change member visibility');
    }
    const membership = await this.orgs.orgUser(ctx.org.id, user.id);
    if (!membership) throw DomainError.notFound(`user "${username}" is not a member of "${ctx.org.name}"`);
    if (membership.isPublic !== isPublic) await this.orgs.setPublic(ctx.org.id, user.id, isPublic);
  }


  private memberAddedEvent(tx: Tx, org: OrgRow, user: UserRow): Promise<void> {
    return this.events.record(tx, IdentityEvents.memberAdded, { orgId: org.id, org: org.name, userId: user.id, login: user.name });
  }

  private memberRemovedEvent(tx: Tx, org: OrgRow, user: UserRow): Promise<void> {
    return this.events.record(tx, IdentityEvents.memberRemoved, { orgId: org.id, org: org.name, userId: user.id, login: user.name });
  }
}

function standingFrom(teams: TeamRow[]): OrgMembershipReply {
  return {
    isMember: true,
    isOwner: teams.some((t) => t.permission === 'owner'),
    teams: teams.map((t) => ({
      id: t.id,
      name: t.name,
      permission: t.permission as TeamPermission,
      includesAllRepositories: t.includesAllRepositories,
      canCreateOrgRepo: t.canCreateOrgRepo,
      units: t.units,
      // The mode of each unit the team reaches (its permission, or what `units_map` says per unit).
      unitsMap: toTeamDto(t, null).units_map,
    })),
  };
}
