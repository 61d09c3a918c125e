-- CreateTable
CREATE TABLE "repositories" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "owner_name" TEXT NOT NULL,
    "owner_lower_name" TEXT NOT NULL,
    "owner_kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "is_private" BOOLEAN NOT NULL DEFAULT false,
    "is_empty" BOOLEAN NOT NULL DEFAULT true,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMPTZ(3),
    "is_template" BOOLEAN NOT NULL DEFAULT false,
    "default_branch" TEXT NOT NULL,
    "object_format_name" TEXT NOT NULL DEFAULT 'sha1',
    "size" INTEGER NOT NULL DEFAULT 0,
    "num_issues" INTEGER NOT NULL DEFAULT 0,
    "num_closed_issues" INTEGER NOT NULL DEFAULT 0,
    "num_pulls" INTEGER NOT NULL DEFAULT 0,
    "num_closed_pulls" INTEGER NOT NULL DEFAULT 0,
    "has_issues" BOOLEAN NOT NULL DEFAULT true,
    "has_pull_requests" BOOLEAN NOT NULL DEFAULT true,
    "has_releases" BOOLEAN NOT NULL DEFAULT true,
    "has_packages" BOOLEAN NOT NULL DEFAULT true,
    "has_actions" BOOLEAN NOT NULL DEFAULT true,
    "ignore_whitespace_conflicts" BOOLEAN NOT NULL DEFAULT false,
    "allow_merge_commits" BOOLEAN NOT NULL DEFAULT true,
    "allow_rebase" BOOLEAN NOT NULL DEFAULT true,
    "allow_rebase_explicit" BOOLEAN NOT NULL DEFAULT true,
    "allow_squash_merge" BOOLEAN NOT NULL DEFAULT true,
    "allow_fast_forward_only_merge" BOOLEAN NOT NULL DEFAULT true,
    "allow_rebase_update" BOOLEAN NOT NULL DEFAULT true,
    "allow_manual_merge" BOOLEAN NOT NULL DEFAULT false,
    "autodetect_manual_merge" BOOLEAN NOT NULL DEFAULT false,
    "default_delete_branch_after_merge" BOOLEAN NOT NULL DEFAULT false,
    "default_merge_style" TEXT NOT NULL DEFAULT 'merge',
    "default_allow_maintainer_edit" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repositories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collaborations" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'write',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collaborations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_repos" (
    "id" SERIAL NOT NULL,
    "org_id" INTEGER NOT NULL,
    "team_id" INTEGER NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_repos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "repositories_owner_lower_name_lower_name_idx" ON "repositories"("owner_lower_name", "lower_name");

-- CreateIndex
CREATE INDEX "repositories_lower_name_idx" ON "repositories"("lower_name");

-- CreateIndex
CREATE UNIQUE INDEX "repositories_owner_id_lower_name_key" ON "repositories"("owner_id", "lower_name");

-- CreateIndex
CREATE INDEX "collaborations_user_id_idx" ON "collaborations"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "collaborations_repo_id_user_id_key" ON "collaborations"("repo_id", "user_id");

-- CreateIndex
CREATE INDEX "team_repos_repo_id_idx" ON "team_repos"("repo_id");

-- CreateIndex
CREATE UNIQUE INDEX "team_repos_team_id_repo_id_key" ON "team_repos"("team_id", "repo_id");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "collaborations" ADD CONSTRAINT "collaborations_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_repos" ADD CONSTRAINT "team_repos_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
