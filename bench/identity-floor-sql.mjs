// The SQL of the benchmarks' bare floors that resolve an access token as identity-service does (gateway-user,
// runners-list).
/**
 * The statements identity-service's Prisma client sends to resolve a token (captured with `log_statement = all`):
 * the token by its SHA-256 hash, its user, the user's two-factor enrolment — then it renders Gitea's `User`.
 */
export const TOKEN_SQL = `SELECT "identity"."access_tokens"."id", "identity"."access_tokens"."user_id", "identity"."access_tokens"."name",
  "identity"."access_tokens"."token_hash", "identity"."access_tokens"."token_last_eight", "identity"."access_tokens"."scopes",
  "identity"."access_tokens"."created_at", "identity"."access_tokens"."last_used_at"
  FROM "identity"."access_tokens" WHERE ("identity"."access_tokens"."token_hash" = $1 AND 1=1) LIMIT $2 OFFSET $3`;
export const USER_SQL = `SELECT "identity"."users"."id", "identity"."users"."type", "identity"."users"."name", "identity"."users"."lower_name",
  "identity"."users"."full_name", "identity"."users"."email", "identity"."users"."lower_email", "identity"."users"."password_hash",
  "identity"."users"."must_change_password", "identity"."users"."login_name", "identity"."users"."source_id",
  "identity"."users"."is_admin", "identity"."users"."is_active", "identity"."users"."prohibit_login", "identity"."users"."restricted",
  "identity"."users"."visibility", "identity"."users"."language", "identity"."users"."location", "identity"."users"."website",
  "identity"."users"."description", "identity"."users"."allow_git_hook", "identity"."users"."allow_import_local",
  "identity"."users"."allow_create_organization", "identity"."users"."max_repo_creation",
  "identity"."users"."repo_admin_change_team_access", "identity"."users"."last_login_at", "identity"."users"."created_at",
  "identity"."users"."updated_at" FROM "identity"."users" WHERE "identity"."users"."id" = $1 OFFSET $2`;
export const TWO_FACTOR_SQL = `SELECT "identity"."two_factors"."id", "identity"."two_factors"."user_id" FROM "identity"."two_factors"
  WHERE "identity"."two_factors"."user_id" IN ($1) OFFSET $2`;

