import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  DomainError, ErrorCode, IdentitySubjects, type ScopeCategory,
} from '@cairn/contracts';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyRequest } from 'fastify';
import { readCredentials } from './credentials.js';
import { getAuthState, setAuthState } from './request-context.js';
import {
  BASIC_AUTH_ONLY, PUBLIC_ROUTE, SCOPE_CATEGORY, SIGN_IN_REQUIRED, SITE_ADMIN_ONLY,
} from './policy.decorators.js';
import { missingScopeMessage } from './scopes.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';

/**
 * Authenticates every API request with one identity-service call, then applies instance policy from route metadata:
 * sign-in required, site admin only, Basic-only, token scopes, and `REQUIRE_SIGNIN_VIEW`. Repository-level access is
 * decided later, per repository.
 */
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
      const reply = await this.rpc.send(IdentitySubjects.authResolve, presented.request);
      // Gitea refuses every API call of a user who must change their password first (the change happens on the web).
      if (reply.mustChangePassword) {
        throw DomainError.forbidden(`You must change your password. Change it at: ${this.common.rootUrl}user/change_password`);
      }
      setAuthState(req, { actor: reply.actor, user: reply.user, method: presented.method });
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
    const { actor, method } = getAuthState(req);
    const siteAdminOnly = this.meta<boolean>(SITE_ADMIN_ONLY, context);
    const signInRequired =
      siteAdminOnly ||
      this.meta<boolean>(SIGN_IN_REQUIRED, context) ||
      (this.settings.requireSigninView === 'strict' && !this.meta<boolean>(PUBLIC_ROUTE, context));
    if (!actor) {
      if (signInRequired || this.meta<boolean>(BASIC_AUTH_ONLY, context)) {
        throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      }
      return;
    }
    if (this.meta<boolean>(BASIC_AUTH_ONLY, context) && method !== 'basic-password' && method !== 'basic-token') {
      throw new DomainError(ErrorCode.UNAUTHENTICATED, 'auth required');
    }
    const category = this.meta<ScopeCategory>(SCOPE_CATEGORY, context);
    if (category) {
      const missing = missingScopeMessage(actor, category, req.method);
      if (missing) throw new DomainError(ErrorCode.PERMISSION_DENIED, missing);
    }
    if (siteAdminOnly && !actor.isAdmin) {
      throw new DomainError(ErrorCode.PERMISSION_DENIED, 'user should be the site admin');
    }
  }
}

