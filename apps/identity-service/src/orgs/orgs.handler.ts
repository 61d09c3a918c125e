import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateOrgRequest, CreateTeamRequest, IdentitySubjects, OrgListRequest, OrgMemberRequest, OrgMembershipRequest, OrgStandingsRequest, type OrgStandingsReply,
  OrgPagedRequest, OrgRequest, SetPublicMemberRequest, TeamMemberRequest, TeamPagedRequest, TeamRequest,
  type OrgMembershipReply, type OrganizationDto, type Paginated, type TeamDto, type UserDto,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { OrgsService } from './orgs.service.js';

@Controller()
export class OrgsHandler {
  constructor(private readonly orgs: OrgsService) {}

  @MessagePattern(IdentitySubjects.orgCreate)
  create(@Payload() req: CreateOrgRequest): Promise<OrganizationDto> {
    return this.orgs.create(requireActor(req.actor), requireBody(req.body), req.username);
  }

  @MessagePattern(IdentitySubjects.orgGet)
  get(@Payload() req: OrgRequest): Promise<OrganizationDto> {
    return this.orgs.get(req.actor ?? null, req.org);
  }

  @MessagePattern(IdentitySubjects.orgList)
  list(@Payload() req: OrgListRequest): Promise<Paginated<OrganizationDto>> {
    return this.orgs.list(req.actor ?? null, req.username, req.query ?? {});
  }

  @MessagePattern(IdentitySubjects.orgMembership)
  membership(@Payload() req: OrgMembershipRequest): Promise<OrgMembershipReply> {
    return this.orgs.membership(req.orgId, req.userId);
  }

  @MessagePattern(IdentitySubjects.orgStandings)
  async standings(@Payload() req: OrgStandingsRequest): Promise<OrgStandingsReply> {
    return { standings: await this.orgs.standings(req.userId) };
  }

  @MessagePattern(IdentitySubjects.teamList)
  listTeams(@Payload() req: OrgPagedRequest): Promise<Paginated<TeamDto>> {
    return this.orgs.listTeams(requireActor(req.actor), req.org, req.query ?? {});
  }

  @MessagePattern(IdentitySubjects.teamCreate)
  createTeam(@Payload() req: CreateTeamRequest): Promise<TeamDto> {
    return this.orgs.createTeam(requireActor(req.actor), req.org, requireBody(req.body));
  }

  @MessagePattern(IdentitySubjects.teamGet)
  getTeam(@Payload() req: TeamRequest): Promise<TeamDto> {
    return this.orgs.getTeam(requireActor(req.actor), req.teamId);
  }

  @MessagePattern(IdentitySubjects.teamMemberList)
  listTeamMembers(@Payload() req: TeamPagedRequest): Promise<Paginated<UserDto>> {
    return this.orgs.listTeamMembers(requireActor(req.actor), req.teamId, req.query ?? {});
  }

  @MessagePattern(IdentitySubjects.teamMemberAdd)
  async addTeamMember(@Payload() req: TeamMemberRequest): Promise<{ ok: true }> {
    await this.orgs.addTeamMember(requireActor(req.actor), req.teamId, req.username);
    return { ok: true };
  }

  @MessagePattern(IdentitySubjects.teamMemberRemove)
  async removeTeamMember(@Payload() req: TeamMemberRequest): Promise<{ ok: true }> {
    await this.orgs.removeTeamMember(requireActor(req.actor), req.teamId, req.username);
    return { ok: true };
  }

  @MessagePattern(IdentitySubjects.memberList)
  listMembers(@Payload() req: OrgPagedRequest): Promise<Paginated<UserDto>> {
    return this.orgs.listMembers(req.actor ?? null, req.org, req.query ?? {});
  }

  @MessagePattern(IdentitySubjects.memberCheck)
  checkMember(@Payload() req: OrgMemberRequest): Promise<boolean> {
    return this.orgs.checkMember(req.actor ?? null, req.org, req.username);
  }

  @MessagePattern(IdentitySubjects.memberRemove)
  async removeMember(@Payload() req: OrgMemberRequest): Promise<{ ok: true }> {
    await this.orgs.removeMember(requireActor(req.actor), req.org, req.username);
    return { ok: true };
  }

  @MessagePattern(IdentitySubjects.publicMemberList)
  listPublicMembers(@Payload() req: OrgPagedRequest): Promise<Paginated<UserDto>> {
    return this.orgs.listPublicMembers(req.actor ?? null, req.org, req.query ?? {});
  }

  @MessagePattern(IdentitySubjects.publicMemberCheck)
  checkPublicMember(@Payload() req: OrgMemberRequest): Promise<boolean> {
    return this.orgs.checkPublicMember(req.actor ?? null, req.org, req.username);
  }

  @MessagePattern(IdentitySubjects.publicMemberSet)
  async setPublicMember(@Payload() req: SetPublicMemberRequest): Promise<{ ok: true }> {
    await this.orgs.setPublicMember(requireActor(req.actor), req.org, req.username, req.public);
    return { ok: true };
  }
}
