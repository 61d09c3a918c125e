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

/**
 * The token-scope categories of a route group (Gitea's `tokenRequiresScopes`): GET/HEAD need `read:<cat>`, others
 * `write:<cat>`, for every category given. A route's own decorator replaces its controller's.
 */
export const ScopeCategoryOf = (...categories: [ScopeCategory, ...ScopeCategory[]]) => SetMetadata(SCOPE_CATEGORY, categories);
/** Anonymous callers get 401 `token is required` (Gitea's `reqToken`). */
export const SignInRequired = () => SetMetadata(SIGN_IN_REQUIRED, true);
/** Site administrators only: 401 anonymous, 403 others (Gitea's `reqSiteAdmin`). */
export const SiteAdminOnly = () => SetMetadata(SITE_ADMIN_ONLY, true);
/**
 * Refused (403, saying how to enrol) to a user who must enrol under `[security] TWO_FACTOR_AUTH = enforced`: routes
 * that hand out repository data outside one repository's routes (organization hooks: their deliveries carry private
 * repositories' payloads). Site-admin-only routes imply it.
 */
export const TwoFactorRequired = () => SetMetadata(TWO_FACTOR_REQUIRED, true);

export interface PasswordRequiredOptions {
  /** An administrator's password with `Sudo` may act for the user (token management); false for sign-in changes. */
  sudo: boolean;
}
/**
 * Basic authentication with the account's password only (Gitea's `reqBasicOrRevProxyAuth`, plus `X-Gitea-OTP` when
 * enrolled): a token — in a header, the query or as the Basic password — is refused with 401, so no token can mint,
 * list or revoke tokens (a `write:user` token could otherwise create an `all` token), nor change how the account signs
 * in. `{ sudo: false }`: changes to sign-in itself (two-factor enrolment) need what only the person knows.
 */
export const PasswordRequired = (options: PasswordRequiredOptions = { sudo: true }) =>
  SetMetadata(PASSWORD_REQUIRED, options);
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
