import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  DomainError, ErrorCode, twoFactorDeniesRepoAccess, twoFactorRequiredMessage, type ScopeCategory,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyRequest } from 'fastify';
import { readCredentials } from './credentials.js';
import { getAuthState, setAuthState } from './request-context.js';
import {
  PASSWORD_REQUIRED, PUBLIC_ROUTE, SCOPE_CATEGORY, SIGN_IN_REQUIRED, SITE_ADMIN_ONLY, TWO_FACTOR_REQUIRED,
  type PasswordRequiredOptions,
} from './policy.decorators.js';
import { resolveCredentials } from './resolve-credentials.js';
import { missingScopeMessage } from './scopes.js';
import { assertSiteAdmin } from './site-admin-policy.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';

export const PASSWORD_REQUIRED_MESSAGE =
  'auth required: use Basic authentication with your password (plus X-Gitea-OTP when two-factor is enrolled); an access token, even as the Basic password, is not accepted here';

// One identity-service call, then instance policy from route metadata; repository access is decided later, per
// repository.
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly rpc: RpcClient,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const presented = readCredentials(req);
    if (presented === 'malformed') {
      throw new DomainError(ErrorCode.UNAUTHENTICATED, 'malformed Authorization header');
    }
    if (presented.request) {
      const reply = await resolveCredentials(this.rpc, this.settings, presented.request);
      // Gitea refuses every API call of a user who must change their password first (the change happens on the web).
      if (reply.mustChangePassword) {
        throw DomainError.forbidden(`You must change your password. Change it at: ${this.common.rootUrl}user/change_password`);
      }
      setAuthState(req, { actor: reply.actor, user: reply.user, method: presented.method, sudoer: reply.sudoer });
    } else {
      setAuthState(req, { actor: null, user: null, method: 'none' });
    }
    this.applyPolicy(context, req);
    return true;
  }

  private meta<T>(key: string, context: ExecutionContext): T | undefined {
    return this.reflector.getAllAndOverride<T>(key, [context.getHandler(), context.getClass()]);
  }

  private applyPolicy(context: ExecutionContext, req: FastifyRequest): void {
    const { actor, method, sudoer } = getAuthState(req);
    const siteAdminOnly = this.meta<boolean>(SITE_ADMIN_ONLY, context);
    const signInRequired =
      siteAdminOnly ||
      this.meta<boolean>(SIGN_IN_REQUIRED, context) ||
      (this.settings.requireSigninView === 'strict' && !this.meta<boolean>(PUBLIC_ROUTE, context));
    if (!actor) {
      if (signInRequired || this.meta<PasswordRequiredOptions>(PASSWORD_REQUIRED, context)) {
        throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      }
      return;
    }
    // `via` is what identity-service checked: a Basic password that merely looked like a token is still a password.
    const byPassword = (method === 'basic-password' || method === 'basic-token') && actor.via === 'password';
    const passwordRequired = this.meta<PasswordRequiredOptions>(PASSWORD_REQUIRED, context);
    if (passwordRequired && !byPassword) {
      throw new DomainError(ErrorCode.UNAUTHENTICATED, PASSWORD_REQUIRED_MESSAGE);
    }
    if (passwordRequired && !passwordRequired.sudo && sudoer) {
      throw DomainError.forbidden('this route cannot be used with Sudo: the user must sign in themself');
    }
    const categories = this.meta<ScopeCategory[]>(SCOPE_CATEGORY, context);
    if (categories) {
      const missing = missingScopeMessage(actor, categories, req.method);
      if (missing) throw new DomainError(ErrorCode.PERMISSION_DENIED, missing);
    }
    if (siteAdminOnly) assertSiteAdmin(actor, this.settings.twoFactorAuth);
    if (this.meta<boolean>(TWO_FACTOR_REQUIRED, context) && twoFactorDeniesRepoAccess(this.settings.twoFactorAuth, actor)) {
      throw DomainError.forbidden(twoFactorRequiredMessage('this route'));
    }
  }
}

