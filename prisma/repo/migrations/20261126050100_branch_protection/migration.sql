-- CreateTable
CREATE TABLE "branch_protections" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "rule_name" TEXT NOT NULL,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "can_push" BOOLEAN NOT NULL DEFAULT false,
    "enable_whitelist" BOOLEAN NOT NULL DEFAULT false,
    "whitelist_user_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "whitelist_teams" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "whitelist_deploy_keys" BOOLEAN NOT NULL DEFAULT false,
    "can_force_push" BOOLEAN NOT NULL DEFAULT false,
    "enable_force_push_allowlist" BOOLEAN NOT NULL DEFAULT false,
    "force_push_allowlist_user_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "force_push_allowlist_teams" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "force_push_allowlist_deploy_keys" BOOLEAN NOT NULL DEFAULT false,
    "enable_merge_whitelist" BOOLEAN NOT NULL DEFAULT false,
    "merge_whitelist_user_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "merge_whitelist_teams" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "enable_status_check" BOOLEAN NOT NULL DEFAULT false,
    "status_check_contexts" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "enable_approvals_whitelist" BOOLEAN NOT NULL DEFAULT false,
    "approvals_whitelist_user_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "approvals_whitelist_teams" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "required_approvals" INTEGER NOT NULL DEFAULT 0,
    "block_on_rejected_reviews" BOOLEAN NOT NULL DEFAULT false,
    "block_on_official_review_requests" BOOLEAN NOT NULL DEFAULT false,
    "block_on_outdated_branch" BOOLEAN NOT NULL DEFAULT false,
    "dismiss_stale_approvals" BOOLEAN NOT NULL DEFAULT false,
    "ignore_stale_approvals" BOOLEAN NOT NULL DEFAULT false,
    "require_signed_commits" BOOLEAN NOT NULL DEFAULT false,
    "protected_file_patterns" TEXT NOT NULL DEFAULT '',
    "unprotected_file_patterns" TEXT NOT NULL DEFAULT '',
    "block_admin_merge_override" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "branch_protections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "branch_protections_repo_id_rule_name_key" ON "branch_protections"("repo_id", "rule_name");

-- AddForeignKey
ALTER TABLE "branch_protections" ADD CONSTRAINT "branch_protections_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
