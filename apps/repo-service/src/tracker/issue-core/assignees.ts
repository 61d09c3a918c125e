import { Injectable } from '@nestjs/common';
import {
  DomainError, TEAM_LOOKUP_MAX, mayTriage, type AssigneesFields, type RepoRefDto, type TeamDto, type UserDto,
} from '@cairn/contracts';
import { teamReachesRepo } from '../../foundation/access/access-level.js';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { CollaboratorsRepository } from '../../git-core/collaborators/collaborators.repository.js';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';

const UNIT_MODES = ['none', 'read', 'write', 'admin', 'owner'];

/** Gitea's `GetRepoAssignees`: a unit at write or above, or read on pull requests. */
export function teamMembersAssignable(team: Pick<TeamDto, 'units_map'>): boolean {
  const modes = Object.entries(team.units_map).map(([unit, mode]) => [unit, UNIT_MODES.indexOf(mode)] as const);
  return modes.some(([unit, rank]) => rank >= UNIT_MODES.indexOf('write') || (unit === 'repo.pulls' && rank >= UNIT_MODES.indexOf('read')));
}

/** Gitea's `GetRepoAssignees`: owner of a user's repository, write/admin collaborators, members of reaching teams. */
@Injectable()
export class Assignees {
  constructor(
    private readonly identity: IdentityDirectory,
    private readonly access: AccessService,
    private readonly collaborators: CollaboratorsRepository,
    private readonly views: RepoViews,
  ) {}

  /** Undefined when not given or the actor lacks write (Gitea ignores them then); 422 for an unassignable user. */
  async resolve(scope: ViewScope, body: AssigneesFields | undefined): Promise<number[] | undefined> {
    if (!body || (body.assignee === undefined && body.assignees === undefined)) return undefined;
    if (!mayTriage(scope.access)) return undefined;
    const names = [body.assignee ?? '', ...(body.assignees ?? [])].map((n) => n.trim()).filter(Boolean);
    const seen = new Map<string, string>();
    for (const n of names) if (!seen.has(n.toLowerCase())) seen.set(n.toLowerCase(), n);
    if (seen.size === 0) return [];
    const allowed = await this.assignableIds(scope.repo);
    const ids: number[] = [];
    for (const name of seen.values()) {
      const user = await this.identity.userByLogin(name);
      if (!user) throw DomainError.unprocessable(`user does not exist [name: ${name.slice(0, 100)}]`);
      if (!allowed.has(user.id)) {
        throw DomainError.unprocessable(`user ${user.login} does not have write access to the repository and cannot be assigned`);
      }
      ids.push(user.id);
    }
    return ids;
  }

  /** `GET …/assignees`: the assignable users by login, a user owner last (as Gitea). */
  async assignable(repo: Pick<RepoRefDto, 'id' | 'ownerId'>): Promise<UserDto[]> {
    const ids = await this.assignableIds(repo);
    const users = await this.views.users(ids);
    const listed = [...ids].filter((id) => id !== repo.ownerId).map((id) => users.get(id)).filter((u): u is UserDto => !!u);
    listed.sort((a, b) => a.login.toLowerCase().localeCompare(b.login.toLowerCase()));
    const owner = ids.has(repo.ownerId) ? users.get(repo.ownerId) : undefined;
    return owner ? [...listed, owner] : listed;
  }

  private async assignableIds(repo: Pick<RepoRefDto, 'id' | 'ownerId'>): Promise<Set<number>> {
    const row = (await this.views.repositoryCached(repo.id)).row;
    const isOrg = row.ownerKind === 'organization';
    const [collaborators, teams] = await Promise.all([
      this.collaborators.userIdsWithModes(repo.id, ['write', 'admin']),
      isOrg ? this.reachingTeams(repo) : Promise.resolve([]),
    ]);
    const ids = new Set<number>(isOrg ? [] : [repo.ownerId]);
    for (const id of collaborators) ids.add(id);
    for (const t of teams) if (teamMembersAssignable(t.team)) for (const id of t.memberIds ?? []) ids.add(id);
    return ids;
  }

  private async reachingTeams(repo: Pick<RepoRefDto, 'id' | 'ownerId'>) {
    const granted = await this.access.grantedTeamIds(repo.id);
    const teams = await this.identity.teams({ orgId: repo.ownerId, ids: [...granted].slice(0, TEAM_LOOKUP_MAX), includingAll: true, withMembers: true });
    return teams.filter((t) => teamReachesRepo({ id: t.team.id, includesAllRepositories: t.team.includes_all_repositories }, granted));
  }
}
