import { Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, isWellFormedAccessToken,
  type ActorDto, type ResolveCredentialsReply, type ResolveCredentialsRequest, type SecondFactorReply,
  type SecondFactorRequest, type WebSignInReply, type WebSignInRequest,
} from '@cairn/contracts';
import { assertCanSignIn } from '../common/sign-in.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { hashAccessToken } from '../tokens/token-secret.js';
import { TokenUsage } from '../tokens/token-usage.js';
import { UsersRepository, type UserWithTwoFactor } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import { PasswordHasher } from '../common/password-hasher.js';
import { SignInThrottle } from '../common/sign-in-throttle.js';
import { TwoFactorService } from './two-factor.service.js';

interface Principal {
  user: UserWithTwoFactor;
  via: 'token' | 'password';
  scopes: string[];
  tokenId?: number;
}

const unauthenticated = (message: string) => new DomainError(ErrorCode.UNAUTHENTICATED, message);

/** Turns presented credentials into an actor (Gitea's `services/auth` basic + token methods, and sudo). */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly tokens: TokensRepository,
    private readonly tokenUsage: TokenUsage,
    private readonly hasher: PasswordHasher,
    private readonly twoFactor: TwoFactorService,
    private readonly throttle: SignInThrottle,
  ) {}

  async resolve(req: ResolveCredentialsRequest): Promise<ResolveCredentialsReply> {
    const principal = await this.principal(req);
    let effective = principal.user;
    if (req.sudo) {
      if (!principal.user.isAdmin) throw DomainError.forbidden('Only administrators allowed to sudo.');
      const target = await this.users.findUserByName(req.sudo);
      if (!target) throw DomainError.notFound(`user "${req.sudo}" does not exist`);
      effective = target;
    }
    const actor: ActorDto = {
      id: effective.id,
      login: effective.name,
      isAdmin: effective.isAdmin,
      scopes: principal.scopes,
      hasTwoFactor: effective.twoFactor !== null,
      via: principal.via,
      ...(principal.tokenId !== undefined ? { tokenId: principal.tokenId } : {}),
    };
    return {
      actor,
      user: this.usersService.render(effective, actor),
      mustChangePassword: effective.mustChangePassword,
      ...(req.sudo ? { sudoer: { id: principal.user.id, login: principal.user.name, hasTwoFactor: principal.user.twoFactor !== null } } : {}),
    };
  }

  /** A web session's user, re-read on every page: disabled, prohibited or deleted users are signed out. */
  async sessionUser(userId: number): Promise<ResolveCredentialsReply> {
    const user = await this.users.findById(userId);
    if (!user) throw unauthenticated('the signed-in user no longer exists');
    assertCanSignIn(user);
    const actor: ActorDto = {
      id: user.id,
      login: user.name,
      isAdmin: user.isAdmin,
      scopes: ['all'],
      hasTwoFactor: user.twoFactor !== null,
      via: 'session',
    };
    return { actor, user: this.usersService.render(user, actor), mustChangePassword: user.mustChangePassword };
  }

  // The actor a stored sign-in (registry bearer tokens) stands for now: the user as they are and, for a token
  // sign-in, that token if it still exists and is the user's, with its current scopes.
  async referencedActor(userId: number, tokenId?: number): Promise<ResolveCredentialsReply> {
    let principal: Principal;
    if (tokenId === undefined) {
      const user = await this.users.findById(userId);
      if (!user) throw unauthenticated('the user no longer exists');
      principal = { user, via: 'password', scopes: ['all'] };
    } else {
      const row = await this.tokens.findById(tokenId);
      if (!row || row.userId !== userId) throw unauthenticated('the access token no longer exists');
      principal = { user: row.user, via: 'token', scopes: row.scopes, tokenId: row.id };
    }
    assertCanSignIn(principal.user);
    const actor: ActorDto = {
      id: principal.user.id,
      login: principal.user.name,
      isAdmin: principal.user.isAdmin,
      scopes: principal.scopes,
      hasTwoFactor: principal.user.twoFactor !== null,
      via: principal.via,
      ...(principal.tokenId !== undefined ? { tokenId: principal.tokenId } : {}),
    };
    return { actor, user: this.usersService.render(principal.user, actor), mustChangePassword: principal.user.mustChangePassword };
  }

  private principal(req: ResolveCredentialsRequest): Promise<Principal> {
    const { secret, username } = req;
    if (req.kind === 'token') {
      if (isWellFormedAccessToken(secret)) return this.byToken(secret);
      // Basic auth whose password only looked like a token to the gateway: Gitea falls back to the password.
      if (username) return this.byPassword(username, secret, req.otp, req.clientAddress);
      throw unauthenticated('invalid token');
    }
    if (isWellFormedAccessToken(secret)) return this.byToken(secret);
    if ((secret === '' || secret === 'x-oauth-basic') && username && isWellFormedAccessToken(username)) {
      return this.byToken(username);
    }
    return this.byPassword(username ?? '', secret, req.otp, req.clientAddress);
  }

  private async byToken(token: string): Promise<Principal> {
    const row = await this.tokens.findByHash(hashAccessToken(token));
    if (!row) throw unauthenticated('invalid token');
    assertCanSignIn(row.user);
    this.tokenUsage.record(row.id);
    return { user: row.user, via: 'token', scopes: row.scopes, tokenId: row.id };
  }

  /** A wrong password or code stays counted; a right password waiting for its code counts for nothing. */
  private async byPassword(login: string, password: string, otp: string | undefined, address?: string): Promise<Principal> {
    const { user, attempt } = await this.checkPassword(login, password, address);
    try {
      if (user.twoFactor && !otp) throw unauthenticated('two-factor authentication code required (X-Gitea-OTP)');
    } catch (err) {
      await attempt.undecided();
      throw err;
    }
    if (user.twoFactor && !(await this.twoFactor.verifyPasscode(user.id, otp!))) {
      throw unauthenticated('invalid (or already used) two-factor authentication code (X-Gitea-OTP)');
    }
    await attempt.succeeded();
    return { user, via: 'password', scopes: ['all'] };
  }

  /** An account that may not sign in is refused without counting (the password was right). */
  private async checkPassword(login: string, password: string, address?: string) {
    const user = login ? await this.users.findUserForLogin(login) : null;
    // A user is counted by id (whatever name or email they sign in with); an unknown name by itself.
    const attempt = await this.throttle.begin({ account: user ? `id:${user.id}` : `name:${login}`, address });
    if (!user?.passwordHash) {
      await this.hasher.burn(password);
      throw unauthenticated('invalid username or password');
    }
    if (!(await this.hasher.verify(password, user.passwordHash))) throw unauthenticated('invalid username or password');
    try {
      assertCanSignIn(user);
    } catch (err) {
      await attempt.undecided();
      throw err;
    }
    return { user, attempt };
  }

  /** The web form's password step: with two-factor enrolled the attempt stays undecided until the code step. */
  async webSignIn(req: WebSignInRequest): Promise<WebSignInReply> {
    const { user, attempt } = await this.checkPassword(req.login.trim(), req.password, req.clientAddress);
    if (user.twoFactor) {
      await attempt.undecided();
      return { userId: user.id, twoFactorRequired: true };
    }
    await attempt.succeeded();
    return { userId: user.id, twoFactorRequired: false };
  }

  /** The web form's code step, counted against the same account and address as the password step. */
  async webSecondFactor(req: SecondFactorRequest): Promise<SecondFactorReply> {
    const user = await this.users.findById(req.userId);
    const attempt = await this.throttle.begin({ account: `id:${req.userId}`, address: req.clientAddress });
    if (!user?.twoFactor) throw unauthenticated('two-factor authentication is not enrolled: sign in again');
    try {
      assertCanSignIn(user);
    } catch (err) {
      await attempt.undecided();
      throw err;
    }
    const code = req.code.replace(/\s+/g, '');
    const ok = req.method === 'totp'
      ? await this.twoFactor.verifyPasscode(user.id, code)
      : await this.twoFactor.useRecoveryCode(user.id, code);
    if (!ok) {
      throw unauthenticated(
        req.method === 'totp' ? 'invalid (or already used) two-factor authentication code' : 'invalid (or already used) recovery code',
      );
    }
    await attempt.succeeded();
    return { userId: user.id, recoveryCodeUsed: req.method === 'recovery' };
  }
}
