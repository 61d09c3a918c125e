import { Injectable } from '@nestjs/common';
import {
  IdentitySubjects,
  type ActorDto, type OrgMembershipReply, type OwnerDto, type TeamDto, type TeamLookupReply, type TeamLookupRequest,
  type UserDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';

/**
 * What repo-service asks identity-service (users, organizations and teams live there). Lookups are batched: lists
 * make one call for all the users they render, never one per row.
 */
@Injectable()
export class IdentityDirectory {
  constructor(private readonly rpc: RpcClient) {}

  /** A user or organization by name; NOT_FOUND when there is none. */
  resolveOwner(name: string): Promise<OwnerDto> {
    return this.rpc.send(IdentitySubjects.ownerResolve, { name });
  }

  /** Users (and organizations, rendered as users) by id, in one call. */
  async usersById(ids: Iterable<number>): Promise<Map<number, UserDto>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const reply = await this.rpc.send(IdentitySubjects.userLookup, { ids: unique });
    return new Map(reply.users.map((u) => [u.id, u]));
  }

  /** One user by login (case-insensitive), or null. */
  async userByLogin(login: string): Promise<UserDto | null> {
    return (await this.userWithRoleByLogin(login))?.user ?? null;
  }

  /** One user by login with whether they are a site administrator (which rendered users do not reveal). */
  async userWithRoleByLogin(login: string): Promise<{ user: UserDto; isSiteAdmin: boolean } | null> {
    const reply = await this.rpc.send(IdentitySubjects.userLookup, { logins: [login] });
    const user = reply.users.find((u) => u.login.toLowerCase() === login.toLowerCase());
    return user ? { user, isSiteAdmin: (reply.adminIds ?? []).includes(user.id) } : null;
  }

  /** Whether a user (by id) is a site administrator. */
  async isSiteAdmin(id: number): Promise<boolean> {
    const reply = await this.rpc.send(IdentitySubjects.userLookup, { ids: [id] });
    return (reply.adminIds ?? []).includes(id);
  }

  /** A team as the actor may see it (identity-service answers NOT_FOUND or PERMISSION_DENIED as for its own routes). */
  team(actor: ActorDto, teamId: number): Promise<TeamDto> {
    return this.rpc.send(IdentitySubjects.teamGet, { actor, teamId });
  }

  /** Teams of an organization by name or id (or all that include every repository), bounded by identity-service. */
  async teams(query: TeamLookupRequest): Promise<TeamLookupReply['teams']> {
    const nothing = !query.names?.length && !query.ids?.length && !query.includingAll;
    return nothing ? [] : (await this.rpc.send(IdentitySubjects.teamLookup, query)).teams;
  }

  /** A user's standing in an organization. */
  membership(orgId: number, userId: number): Promise<OrgMembershipReply> {
    return this.rpc.send(IdentitySubjects.orgMembership, { orgId, userId });
  }

  /** The actor's standing in every organization they belong to (lists across owners: `GET /user/repos`, search). */
  async standings(actor: ActorDto): Promise<Map<number, OrgMembershipReply>> {
    const reply = await this.rpc.send(IdentitySubjects.orgStandings, { userId: actor.id });
    return new Map(reply.standings.map(({ orgId, ...standing }) => [orgId, standing]));
  }
}
