import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, IdentityEvents, invalidNameReason, toPaging,
  type AccountDeletedData, type ActorDto, type AdminSearchUsersQuery, type CreateUserBody, type EditUserBody, type LookupUsersReply, type LookupUsersRequest, type OwnerDto,
  type Paginated, type SearchUsersQuery, type UserDto,
} from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings, uniqueViolation } from '@cairn/platform';
import { PasswordHasher } from '../common/password-hasher.js';
import { EventPublisher } from '../common/event-publisher.js';
import { canSeeOrg, canSeeUser, visibleToViewer } from '../common/visibility.js';
import { Transactions } from '../prisma/transactions.js';
import { toOwnerDto, toUserDto } from './user.mapper.js';
import { USER_ORG_LINKS, USER_TOKEN_LINKS, type UserOrgLinks, type UserTokenLinks } from './account-links.js';
import { UsersRepository, type UserChanges, type UserRow } from './users.repository.js';

const MAX_LOOKUP = 500;

/** Maps a unique violation on `users` to Gitea's 422 answers. */
export function duplicateAccountError(err: unknown): DomainError | null {
  const constraint = uniqueViolation(err);
  if (constraint === null) return null;
  if (constraint.includes('lower_email')) return DomainError.unprocessable('e-mail already in use');
  if (constraint.includes('lower_name')) return DomainError.unprocessable('user already exists');
  return null;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    @Inject(USER_ORG_LINKS) private readonly orgs: UserOrgLinks,
    @Inject(USER_TOKEN_LINKS) private readonly tokens: UserTokenLinks,
    private readonly hasher: PasswordHasher,
    private readonly events: EventPublisher,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  render(row: UserRow, viewer: ActorDto | null): UserDto {
    return toUserDto(row, { rootUrl: this.common.rootUrl, viewer });
  }

  /** `actor` must be a site admin; `null` is a trusted local caller (the admin CLI), never a message handler. */
  async create(actor: ActorDto | null, body: CreateUserBody): Promise<UserDto> {
    if (actor && !actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
    return this.insert(actor, body);
  }

  /** Sign-up: the rules of {@link create}, as a user who chose their password (no "must change password"). */
  async register(body: Pick<CreateUserBody, 'username' | 'email' | 'password'>): Promise<UserDto> {
    return this.insert(null, { ...body, must_change_password: false, admin: false });
  }

  private async insert(actor: ActorDto | null, body: CreateUserBody): Promise<UserDto> {
    const reason = invalidNameReason(body.username);
    if (reason) throw DomainError.unprocessable(`invalid user name: ${reason}`);
    if (await this.users.nameTaken(body.username)) throw DomainError.unprocessable('user already exists');
    if (await this.users.emailTaken(body.email)) throw DomainError.unprocessable('e-mail already in use');
    const passwordHash = await this.hasher.hash(body.password);
    let row;
    try {
      row = await this.transactions.run(async (tx) => {
        const created = await this.users.create(tx, {
          name: body.username,
          email: body.email,
          passwordHash,
          fullName: body.full_name,
          loginName: body.login_name,
          sourceId: body.source_id,
          mustChangePassword: body.must_change_password ?? true,
          isAdmin: body.admin ?? false,
          restricted: body.restricted,
          visibility: body.visibility,
          createdAt: body.created_at ? new Date(body.created_at) : undefined,
        });
        await this.events.record(tx, IdentityEvents.userCreated, { id: created.id, login: created.name });
        return created;
      });
    } catch (err) {
      throw duplicateAccountError(err) ?? err;
    }
    this.events.kick();
    return this.render(row, actor ?? selfView(row));
  }

  async edit(actor: ActorDto, username: string, body: EditUserBody): Promise<UserDto> {
    if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
    const user = await this.users.findUserByName(username);
    if (!user) throw DomainError.notFound(`user "${username}" does not exist`);
    const c: UserChanges = {};
    if (body.email !== undefined && body.email !== user.email) {
      if (await this.users.emailTaken(body.email, user.id)) throw DomainError.unprocessable('e-mail already in use');
      c.email = body.email;
    }
    if (body.password) c.passwordHash = await this.hasher.hash(body.password);
    if (body.admin === false && user.isAdmin && (await this.users.countAdmins()) <= 1) {
      throw DomainError.unprocessable('cannot remove the last site administrator');
    }
    const copy: Array<[keyof EditUserBody, keyof UserChanges]> = [
      ['full_name', 'fullName'], ['login_name', 'loginName'], ['source_id', 'sourceId'],
      ['must_change_password', 'mustChangePassword'], ['website', 'website'], ['location', 'location'],
      ['description', 'description'], ['active', 'isActive'], ['admin', 'isAdmin'], ['allow_git_hook', 'allowGitHook'],
      ['allow_import_local', 'allowImportLocal'], ['max_repo_creation', 'maxRepoCreation'],
      ['prohibit_login', 'prohibitLogin'], ['allow_create_organization', 'allowCreateOrganization'],
      ['restricted', 'restricted'], ['visibility', 'visibility'],
    ];
    for (const [from, to] of copy) {
      if (body[from] !== undefined) (c as Record<string, unknown>)[to] = body[from];
    }
    let row;
    try {
      row = await this.transactions.run((tx) => this.users.update(tx, user.id, c));
    } catch (err) {
      throw duplicateAccountError(err) ?? err;
    }
    return this.render(row, actor);
  }

  /** Refused while the user is an organization's only owner or owns repositories (Gitea's `ErrUserOwnRepos`). */
  async delete(actor: ActorDto, username: string, countRepositories: (userId: number) => Promise<number>): Promise<void> {
    if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
    const target = await this.users.findByName(username);
    if (!target) throw DomainError.notFound(`user "${username}" does not exist`);
    if (target.type === 'organization') throw DomainError.unprocessable(`${target.name} is an organization not a user`);
    if (target.id === actor.id) throw DomainError.unprocessable('you cannot delete yourself');
    if ((await countRepositories(target.id)) > 0) {
      throw DomainError.unprocessable(`user "${target.name}" still owns repositories: delete or transfer them first`);
    }
    await this.transactions.run(async (tx) => {
      const owned = await this.orgs.lockOwnerTeamsOf(tx, target.id);
      if (owned.some((t) => t.members <= 1)) {
        throw DomainError.unprocessable('user still has ownership of organizations');
      }
      const orgIds = await this.orgs.orgIdsOf(target.id, tx);
      const tokenIds = await this.tokens.idsOfUser(target.id, tx);
      await this.users.delete(tx, target.id);
      for (const orgId of orgIds) {
        await this.events.record(tx, IdentityEvents.memberRemoved, { orgId, userId: target.id, login: target.name });
      }
      for (const tokenId of tokenIds) {
        await this.events.record(tx, IdentityEvents.tokenRevoked, { tokenId, userId: target.id });
      }
      const data: AccountDeletedData = { id: target.id, login: target.name, kind: 'user' };
      await this.events.record(tx, IdentityEvents.userDeleted, data);
    });
    this.events.kick();
  }

  /** A user (or organization, rendered as a user) by name; hidden accounts are NOT_FOUND, as in Gitea. */
  async get(actor: ActorDto | null, username: string): Promise<UserDto> {
    const row = await this.users.findByName(username);
    if (!row || !(await this.visible(actor, row))) throw DomainError.notFound(`user "${username}" does not exist`);
    return this.render(row, actor);
  }

  private async visible(actor: ActorDto | null, row: UserRow): Promise<boolean> {
    if (row.type !== 'organization') return canSeeUser(actor, row);
    const member = actor ? (await this.orgs.orgUser(row.id, actor.id)) !== null : false;
    return canSeeOrg(actor, row, member);
  }

  async search(actor: ActorDto | null, query: SearchUsersQuery): Promise<Paginated<UserDto>> {
    const paging = toPaging(query);
    const { rows, total } = await this.users.search({
      q: query.q?.trim() || undefined,
      uid: query.uid,
      visibilities: visibleToViewer(actor),
      selfId: actor?.id,
      matchEmail: actor?.isAdmin ?? false,
      skip: paging.skip,
      take: paging.take,
    });
    return { items: rows.map((r) => this.render(r, actor)), total };
  }

  /** `GET /admin/users` (site admins): every account, with Gitea's admin filters; alphabetical by default. */
  async adminSearch(actor: ActorDto | null, query: AdminSearchUsersQuery): Promise<Paginated<UserDto>> {
    if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    if (!actor.isAdmin) throw DomainError.forbidden('user should be the site admin');
    const paging = toPaging(query);
    const { rows, total } = await this.users.adminSearch({
      q: query.q?.trim() || undefined,
      sourceId: query.source_id,
      loginName: query.login_name?.trim() || undefined,
      visibility: query.visibility,
      isActive: query.is_active,
      isAdmin: query.is_admin,
      isRestricted: query.is_restricted,
      isTwoFactorEnabled: query.is_2fa_enabled,
      isProhibitLogin: query.is_prohibit_login,
      sort: query.sort ?? 'alphabetically',
      skip: paging.skip,
      take: paging.take,
    });
    return { items: rows.map((r) => this.render(r, actor)), total };
  }

  /** Users by ids, e-mails or logins, for other services rendering authors and owners (anonymous view). */
  async lookup(req: LookupUsersRequest): Promise<LookupUsersReply> {
    const ids = (req.ids ?? []).slice(0, MAX_LOOKUP);
    const emails = (req.emails ?? []).slice(0, MAX_LOOKUP);
    const logins = (req.logins ?? []).slice(0, MAX_LOOKUP);
    const rows = await this.users.lookup(ids, emails, logins);
    const byEmail: Record<string, number> = {};
    for (const r of rows) if (r.lowerEmail) byEmail[r.lowerEmail] = r.id;
    const wanted = new Set(emails.map((e) => e.toLowerCase()));
    for (const key of Object.keys(byEmail)) if (!wanted.has(key)) delete byEmail[key];
    // Authors are rendered with their real address: the caller already knows it (it came from a commit).
    return {
      users: rows.map((r) => {
        const dto = this.render(r, null);
        return r.lowerEmail && wanted.has(r.lowerEmail) ? { ...dto, email: r.email } : dto;
      }),
      byEmail,
      adminIds: rows.filter((r) => r.isAdmin).map((r) => r.id),
    };
  }

  async resolveOwner(name: string): Promise<OwnerDto> {
    const row = await this.users.findByName(name);
    if (!row) throw DomainError.notFound(`owner "${name}" does not exist`);
    return toOwnerDto(row, this.common.rootUrl);
  }
}

/** The user looking at themself (how the admin CLI renders what it created). */
export function selfView(row: UserRow): ActorDto {
  return { id: row.id, login: row.name, isAdmin: row.isAdmin, scopes: ['all'], hasTwoFactor: false };
}
