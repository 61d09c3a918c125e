import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ActorDto, ScopeCategory, UserDto } from '@cairn/contracts';
import type { FastifyRequest } from 'fastify';
import { getAuthState } from './request-context.js';

export const SCOPE_CATEGORY = 'cairn:scopeCategory';
export const SIGN_IN_REQUIRED = 'cairn:signInRequired';
export const SITE_ADMIN_ONLY = 'cairn:siteAdminOnly';
export const BASIC_AUTH_ONLY = 'cairn:basicAuthOnly';
export const PUBLIC_ROUTE = 'cairn:publicRoute';

/** The token-scope category of a route group (Gitea's `tokenRequiresScopes`): GET/HEAD need read, others write. */
export const ScopeCategoryOf = (category: ScopeCategory) => SetMetadata(SCOPE_CATEGORY, category);
/** Anonymous callers get 401 `token is required` (Gitea's `reqToken`). */
export const SignInRequired = () => SetMetadata(SIGN_IN_REQUIRED, true);
/** Site administrators only: 401 anonymous, 403 others (Gitea's `reqSiteAdmin`). */
export const SiteAdminOnly = () => SetMetadata(SITE_ADMIN_ONLY, true);
/** Basic authentication only (password, or token as password), as Gitea's `reqBasicOrRevProxyAuth`. */
export const BasicAuthOnly = () => SetMetadata(BASIC_AUTH_ONLY, true);
/** Reachable without signing in even under `REQUIRE_SIGNIN_VIEW = true` (version, settings). */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);

/** The authenticated actor (`null` when anonymous). */
export const CurrentActor = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): ActorDto | null =>
    getAuthState(ctx.switchToHttp().getRequest<FastifyRequest>()).actor,
);

/** The authenticated user's Gitea `User` shape (`null` when anonymous). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): UserDto | null =>
    getAuthState(ctx.switchToHttp().getRequest<FastifyRequest>()).user,
);
