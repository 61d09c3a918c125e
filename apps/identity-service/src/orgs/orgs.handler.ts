import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcClient, RpcHandler } from '@cairn/platform';
import {
  CreateOrgRequest, CreateTeamRequest, EditOrgRequest, EditTeamRequest, IdentitySubjects, RepoSubjects, OrgListRequest, OrgMemberRequest, OrgMembershipRequest, OrgStandingsRequest, type OrgStandingsReply,
  OrgPagedRequest, OrgRequest, SetPublicMemberRequest, TeamLookupRequest, TeamMemberRequest, TeamPagedRequest, TeamRequest,
  type TeamLookupReply,
  type OrgMembershipReply, type OrganizationDto, type OrganizationPermissionsDto, type Paginated, type TeamDto, type UserDto,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { OrgsService } from './orgs.service.js';

@Controller()
export class OrgsHandler {
  constructor(
    private readonly orgs: OrgsService,
    private readonly rpc: RpcClient,
  ) {}

  @RpcHandler(IdentitySubjects.orgCreate)
  create(@Payload() req: CreateOrgRequest): Promise<OrganizationDto> {
    return this.orgs.create(requireActor(req.actor), requireBody(req.body), req.username);
  }

  @RpcHandler(IdentitySubjects.orgGet)
  get(@Payload() req: OrgRequest): Promise<OrganizationDto> {
    return this.orgs.get(req.actor ?? null, req.org);
  }

  @RpcHandler(IdentitySubjects.orgDelete)
  async delete(@Payload() req: OrgRequest): Promise<null> {
    await this.orgs.delete(requireActor(req.actor), req.org, async (ownerId) => {
      const { count } = await this.rpc.send(RepoSubjects.repositoryOwnedCount, { ownerId });
      return count;
    });
    return null;
  }

  @RpcHandler(IdentitySubjects.orgEdit)
  edit(@Payload() req: EditOrgRequest): Promise<OrganizationDto> {
    return this.orgs.edit(requireActor(req.actor), req.org, requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.orgList)
  list(@Payload() req: OrgListRequest): Promise<Paginated<OrganizationDto>> {
    return this.orgs.list(req.actor ?? null, req.username, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.orgMembership)
  membership(@Payload() req: OrgMembershipRequest): Promise<OrgMembershipReply> {
    return this.orgs.membership(req.orgId, req.userId);
  }

  @RpcHandler(IdentitySubjects.orgUserPermissions)
  userPermissions(@Payload() req: OrgMemberRequest): Promise<OrganizationPermissionsDto> {
    return this.orgs.userPermissions(requireActor(req.actor), req.org, req.username);
  }

  @RpcHandler(IdentitySubjects.orgStandings)
  async standings(@Payload() req: OrgStandingsRequest): Promise<OrgStandingsReply> {
    return { standings: await this.orgs.standings(req.userId) };
  }

  @RpcHandler(IdentitySubjects.teamList)
  listTeams(@Payload() req: OrgPagedRequest): Promise<Paginated<TeamDto>> {
    return this.orgs.listTeams(requireActor(req.actor), req.org, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.teamCreate)
  createTeam(@Payload() req: CreateTeamRequest): Promise<TeamDto> {
    return this.orgs.createTeam(requireActor(req.actor), req.org, requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.teamGet)
  getTeam(@Payload() req: TeamRequest): Promise<TeamDto> {
    return this.orgs.getTeam(requireActor(req.actor), req.teamId);
  }

  @RpcHandler(IdentitySubjects.teamLookup)
  lookupTeams(@Payload() req: TeamLookupRequest): Promise<TeamLookupReply> {
    return this.orgs.lookupTeams(req);
  }

  @RpcHandler(IdentitySubjects.teamEdit)
  editTeam(@Payload() req: EditTeamRequest): Promise<TeamDto> {
    return this.orgs.editTeam(requireActor(req.actor), req.teamId, requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.teamDelete)
  async deleteTeam(@Payload() req: TeamRequest): Promise<{ ok: true }> {
    await this.orgs.deleteTeam(requireActor(req.actor), req.teamId);
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.teamMemberGet)
  getTeamMember(@Payload() req: TeamMemberRequest): Promise<UserDto> {
    return this.orgs.getTeamMember(requireActor(req.actor), req.teamId, req.username);
  }

  @RpcHandler(IdentitySubjects.teamMemberList)
  listTeamMembers(@Payload() req: TeamPagedRequest): Promise<Paginated<UserDto>> {
    return this.orgs.listTeamMembers(requireActor(req.actor), req.teamId, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.teamMemberAdd)
  async addTeamMember(@Payload() req: TeamMemberRequest): Promise<{ ok: true }> {
    await this.orgs.addTeamMember(requireActor(req.actor), req.teamId, req.username);
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.teamMemberRemove)
  async removeTeamMember(@Payload() req: TeamMemberRequest): Promise<{ ok: true }> {
    await this.orgs.removeTeamMember(requireActor(req.actor), req.teamId, req.username);
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.memberList)
  listMembers(@Payload() req: OrgPagedRequest): Promise<Paginated<UserDto>> {
    return this.orgs.listMembers(req.actor ?? null, req.org, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.memberCheck)
  checkMember(@Payload() req: OrgMemberRequest): Promise<boolean> {
    return this.orgs.checkMember(req.actor ?? null, req.org, req.username);
  }

  @RpcHandler(IdentitySubjects.memberRemove)
  async removeMember(@Payload() req: OrgMemberRequest): Promise<{ ok: true }> {
    await this.orgs.removeMember(requireActor(req.actor), req.org, req.username);
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.publicMemberList)
  listPublicMembers(@Payload() req: OrgPagedRequest): Promise<Paginated<UserDto>> {
    return this.orgs.listPublicMembers(req.actor ?? null, req.org, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.publicMemberCheck)
  checkPublicMember(@Payload() req: OrgMemberRequest): Promise<boolean> {
    return this.orgs.checkPublicMember(req.actor ?? null, req.org, req.username);
  }

  @RpcHandler(IdentitySubjects.publicMemberSet)
  async setPublicMember(@Payload() req: SetPublicMemberRequest): Promise<{ ok: true }> {
    await this.orgs.setPublicMember(requireActor(req.actor), req.org, req.username, req.public);
    return { ok: true };
  }
}
