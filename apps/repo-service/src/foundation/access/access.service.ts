import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, REPO_TRUST_MODELS, twoFactorDeniesRepoAccess, type RepoTrustModel,
  type AccessLevel, type ActorDto, type OrgMembershipReply, type RepoAccessReply, type RepoRefDto, type UserDto,
  unitAccessLevel, type RepoUnit, type UnitAccess, type Visibility,
} from '@cairn/contracts';
import { computeAccess, computeUnitAccess, type AccessFacts } from './access-level.js';
import { AccessRepository, type AccessRow } from './access.repository.js';
import { IdentityDirectory } from './identity-directory.js';
import { REPO_SETTINGS, type RepoSettings } from '../config/repo-settings.js';

/** Every owner and repository name is made of these characters (Gitea's user and repository name alphabets). */
const POSSIBLE_NAME = /^[A-Za-z0-9_.-]{1,255}$/;

/** Who access is computed for: a user id and whether they are a site administrator (null = anonymous). */
export type AccessSubject = { id: number; isAdmin: boolean } | null;

/** The facts of one repository that access depends on (rows of lists carry them too). */
export interface RepoAccessFacts {
  id: number;
  ownerId: number;
  ownerKind: string;
  isPrivate: boolean;
}

function subjectOf(actor: ActorDto | null | undefined): AccessSubject {
  return actor ? { id: actor.id, isAdmin: actor.isAdmin } : null;
}

export function toRepoRef(row: AccessRow): RepoRefDto {
  return {
    id: row.id,
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    name: row.name,
    defaultBranch: row.defaultBranch,
    private: row.isPrivate,
    empty: row.isEmpty,
    archived: row.isArchived,
    trustModel: (REPO_TRUST_MODELS as readonly string[]).includes(row.trustModel) ? (row.trustModel as RepoTrustModel) : 'default',
  };
}

/**
 * Access resolution. For one repository: one query (repository + the user's collaboration + its teams) and at most
 * two identity calls made in parallel — the user's standing in the owning organization, and the owner's visibility
 * when it can matter (a public repository seen by someone without rights of their own).
 */
@Injectable()
export class AccessService {
  constructor(
    private readonly repository: AccessRepository,
    private readonly identity: IdentityDirectory,
    @Inject(REPO_SETTINGS) private readonly settings: RepoSettings,
  ) {}

  /**
   * Who access is computed for when `actor` asks for data: the actor, except that under `[security] TWO_FACTOR_AUTH =
   * enforced` a user who must enrol first (`twoFactorDeniesRepoAccess`) gets what the public may see — in every list
   * (subscriptions, notifications, pull request repositories) as on every page.
   */
  viewer(actor: ActorDto | null | undefined): AccessSubject {
    return twoFactorDeniesRepoAccess(this.settings.twoFactorAuth, actor ?? null) ? null : subjectOf(actor);
  }

  /** `repo.access.resolve`: NOT_FOUND when the repository is missing or invisible to the actor. */
  async resolve(actor: ActorDto | null, owner: string, name: string): Promise<RepoAccessReply> {
    // Names outside the owner/repository alphabet cannot exist (and a NUL would make Postgres fail): not found.
    if (!POSSIBLE_NAME.test(owner) || !POSSIBLE_NAME.test(name)) throw DomainError.notFound('repository not found');
    const row = await this.repository.findByPath(owner.toLowerCase(), name.toLowerCase(), actor?.id ?? null);
    if (!row) throw DomainError.notFound('repository not found');
    const { access, units } = await this.unitAccessOf(this.viewer(actor), row);
    if (access === 'none') throw DomainError.notFound('repository not found');
    return { repo: toRepoRef(row), access, ...(units ? { units } : {}) };
  }

  /** Any user's access to a repository by id (`…/collaborators/{user}/permission`). */
  async accessById(user: AccessSubject, repoId: number): Promise<AccessLevel> {
    const row = await this.repository.findById(repoId, user?.id ?? null);
    if (!row) throw DomainError.notFound('repository not found');
    return this.accessOf(user, row);
  }

  /** Any user's access to one unit of a repository by id (branch protection asks for code). */
  async unitAccessById(user: AccessSubject, repoId: number, unit: RepoUnit): Promise<AccessLevel> {
    const row = await this.repository.findById(repoId, user?.id ?? null);
    if (!row) throw DomainError.notFound('repository not found');
    return unitAccessLevel(await this.unitAccessOf(user, row), unit);
  }

  /** The teams given this repository explicitly (`team_repos`; teams including all repositories need no grant). */
  async grantedTeamIds(repoId: number): Promise<Set<number>> {
    return new Set((await this.repository.teamIds([repoId])).get(repoId) ?? []);
  }

  /** Access given a row that already carries the user's collaboration. */
  async accessOf(user: AccessSubject, row: AccessRow): Promise<AccessLevel> {
    return (await this.unitAccessOf(user, row)).access;
  }

  /** The repository-wide access and the units whose access differs (a team's `units_map`). */
  async unitAccessOf(user: AccessSubject, row: AccessRow): Promise<{ access: AccessLevel; units?: UnitAccess }> {
    if (!user && row.isPrivate) return { access: 'none' };
    if (user && (user.isAdmin || user.id === row.ownerId)) return { access: 'owner' };
    const isOrg = row.ownerKind === 'organization';
    const needVisibility = !row.isPrivate && !row.collabMode;
    const [org, ownerVisibility] = await Promise.all([
      isOrg && user ? this.identity.membership(row.ownerId, user.id) : Promise.resolve(null),
      needVisibility ? this.ownerVisibility(row.ownerId) : Promise.resolve(undefined),
    ]);
    const facts: AccessFacts = { user, repo: row, ownerVisibility, collaboration: row.collabMode, org, repoTeamIds: row.teamIds };
    const access = computeAccess(facts);
    return { access, units: computeUnitAccess(facts, access) };
  }

  /**
   * Access of one user to many repositories, without a call per row: the caller supplies the user's standings and
   * the owners (as users, for their visibility); collaborations and team grants are read in two queries.
   */
  async accessOfMany(
    user: AccessSubject,
    rows: RepoAccessFacts[],
    owners: Map<number, UserDto>,
    standings: Map<number, OrgMembershipReply>,
  ): Promise<Map<number, AccessLevel>> {
    const ids = rows.map((r) => r.id);
    const [collabs, teams] = await Promise.all([
      user ? this.repository.collaborationModes(user.id, ids) : Promise.resolve(new Map<number, string>()),
      user ? this.repository.teamIds(ids) : Promise.resolve(new Map<number, number[]>()),
    ]);
    const out = new Map<number, AccessLevel>();
    for (const row of rows) {
      out.set(
        row.id,
        computeAccess({
          user,
          repo: row,
          ownerVisibility: owners.get(row.ownerId)?.visibility ?? 'private',
          collaboration: collabs.get(row.id) ?? null,
          org: standings.get(row.ownerId) ?? null,
          repoTeamIds: teams.get(row.id) ?? [],
        }),
      );
    }
    return out;
  }

  /** The owner's visibility; an owner identity-service no longer knows counts as private. */
  private async ownerVisibility(ownerId: number): Promise<Visibility> {
    try {
      const users = await this.identity.usersById([ownerId]);
      return users.get(ownerId)?.visibility ?? 'private';
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return 'private';
      throw err;
    }
  }
}
