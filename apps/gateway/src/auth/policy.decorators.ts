import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ActorDto, ScopeCategory, UserDto } from '@cairn/contracts';
import type { FastifyRequest } from 'fastify';
import { getAuthState } from './request-context.js';

export const SCOPE_CATEGORY = 'cairn:scopeCategory';
export const SIGN_IN_REQUIRED = 'cairn:signInRequired';
export const SITE_ADMIN_ONLY = 'cairn:siteAdminOnly';
export const PASSWORD_REQUIRED = 'cairn:passwordRequired';
export const PUBLIC_ROUTE = 'cairn:publicRoute';
export const TWO_FACTOR_REQUIRED = 'cairn:twoFactorRequired';

/** Gitea's `tokenRequiresScopes`; a route's own decorator replaces its controller's. */
export const ScopeCategoryOf = (...categories: [ScopeCategory, ...ScopeCategory[]]) => SetMetadata(SCOPE_CATEGORY, categories);
/** Anonymous callers get 401 `token is required` (Gitea's `reqToken`). */
export const SignInRequired = () => SetMetadata(SIGN_IN_REQUIRED, true);
/** Site administrators only: 401 anonymous, 403 others (Gitea's `reqSiteAdmin`). */
export const SiteAdminOnly = () => SetMetadata(SITE_ADMIN_ONLY, true);
/** 403 for users who must enrol: routes handing out repository data outside one repository (org hook deliveries). */
export const TwoFactorRequired = () => SetMetadata(TWO_FACTOR_REQUIRED, true);

export interface PasswordRequiredOptions {
  /** An administrator's password with `Sudo` may act for the user (token management); false for sign-in changes. */
  sudo: boolean;
}
// Gitea's `reqBasicOrRevProxyAuth`: no token can mint, list or revoke tokens (a `write:user` token could create an
// `all` one). `{ sudo: false }`: sign-in changes (two-factor enrolment) need what only the person knows.
export const PasswordRequired = (options: PasswordRequiredOptions = { sudo: true }) =>
  SetMetadata(PASSWORD_REQUIRED, options);
/** Reachable without signing in even under `REQUIRE_SIGNIN_VIEW = true` (version, settings). */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

export const CurrentActor = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): ActorDto | null =>
    getAuthState(ctx.switchToHttp().getRequest<FastifyRequest>()).actor,
);

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): UserDto | null =>
    getAuthState(ctx.switchToHttp().getRequest<FastifyRequest>()).user,
);
