import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcClient, RpcHandler } from '@cairn/platform';
import {
  AdminSearchUsersRequest, RepoSubjects,
  CreateUserRequest, EditUserRequest, IdentitySubjects, LookupUsersRequest, OwnerResolveRequest, SearchUsersRequest,
  ChangeOwnPasswordRequest, DomainError, RegisterUserRequest, UsernameRequest, UserSettingsRequest,
  type LookupUsersReply, type OwnerDto, type Paginated, type UserDto, type UserSettingsDto,
} from '@cairn/contracts';
import { SignInThrottle } from '../common/sign-in-throttle.js';
import { requireActor, requireBody } from '../common/require-actor.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from '../config/identity-settings.js';
import { UsersService } from './users.service.js';
import { UserSettingsService } from './user-settings.service.js';

@Controller()
export class UsersHandler {
  constructor(
    private readonly users: UsersService,
    private readonly settings: UserSettingsService,
    private readonly rpc: RpcClient,
    private readonly throttle: SignInThrottle,
    @Inject(IDENTITY_SETTINGS) private readonly identitySettings: IdentitySettings,
  ) {}

  @RpcHandler(IdentitySubjects.userCreate)
  create(@Payload() req: CreateUserRequest): Promise<UserDto> {
    return this.users.create(requireActor(req.actor), requireBody(req.body));
  }

  /** Every sign-up attempt stays counted against the address: no creating accounts faster than guessing passwords. */
  @RpcHandler(IdentitySubjects.userRegister)
  async register(@Payload() req: RegisterUserRequest): Promise<UserDto> {
    if (this.identitySettings.disableRegistration) throw DomainError.forbidden('registration is disabled on this site');
    await this.throttle.begin({ account: `sign-up:${req.username}`, address: req.clientAddress });
    return this.users.register({ username: req.username, email: req.email, password: req.password });
  }

  @RpcHandler(IdentitySubjects.userEdit)
  edit(@Payload() req: EditUserRequest): Promise<UserDto> {
    return this.users.edit(requireActor(req.actor), req.username, req.body ?? {});
  }

  @RpcHandler(IdentitySubjects.userDelete)
  async delete(@Payload() req: UsernameRequest): Promise<{ ok: true }> {
    await this.users.delete(requireActor(req.actor), req.username, async (ownerId) => {
      const { count } = await this.rpc.send(RepoSubjects.repositoryOwnedCount, { ownerId });
      return count;
    });
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.userGet)
  get(@Payload() req: UsernameRequest): Promise<UserDto> {
    return this.users.get(req.actor ?? null, req.username);
  }

  @RpcHandler(IdentitySubjects.userSearch)
  search(@Payload() req: SearchUsersRequest): Promise<Paginated<UserDto>> {
    return this.users.search(req.actor ?? null, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.userAdminSearch)
  adminSearch(@Payload() req: AdminSearchUsersRequest): Promise<Paginated<UserDto>> {
    return this.users.adminSearch(req.actor ?? null, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.userLookup)
  lookup(@Payload() req: LookupUsersRequest): Promise<LookupUsersReply> {
    return this.users.lookup(req);
  }

  @RpcHandler(IdentitySubjects.userSettingsGet)
  getSettings(@Payload() req: UserSettingsRequest): Promise<UserSettingsDto> {
    return this.settings.get(requireActor(req.actor));
  }

  @RpcHandler(IdentitySubjects.userSettingsUpdate)
  updateSettings(@Payload() req: UserSettingsRequest): Promise<UserSettingsDto> {
    return this.settings.update(requireActor(req.actor), requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.userPasswordChange)
  async changePassword(@Payload() req: ChangeOwnPasswordRequest): Promise<null> {
    await this.settings.changePassword(requireActor(req.actor), req.password);
    return null;
  }

  @RpcHandler(IdentitySubjects.ownerResolve)
  resolveOwner(@Payload() req: OwnerResolveRequest): Promise<OwnerDto> {
    return this.users.resolveOwner(req.name);
  }
}
