-- CreateTable
CREATE TABLE "issue_index_counters" (
    "repo_id" INTEGER NOT NULL,
    "last_index" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "issue_index_counters_pkey" PRIMARY KEY ("repo_id")
);

-- CreateTable
CREATE TABLE "issues" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "is_pull" BOOLEAN NOT NULL DEFAULT false,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'open',
    "is_locked" BOOLEAN NOT NULL DEFAULT false,
    "lock_reason" TEXT,
    "poster_id" INTEGER NOT NULL,
    "num_comments" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "issues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issue_comments" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'comment',
    "poster_id" INTEGER NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pull_requests" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "head_branch" TEXT NOT NULL,
    "base_branch" TEXT NOT NULL,
    "head_sha" TEXT NOT NULL,
    "base_sha" TEXT NOT NULL,
    "merge_base" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'checking',
    "conflicted_files" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "check_message" TEXT,
    "checked_base_sha" TEXT,
    "checked_head_sha" TEXT,
    "checked_at" TIMESTAMPTZ(3),
    "merged" BOOLEAN NOT NULL DEFAULT false,
    "merged_at" TIMESTAMPTZ(3),
    "merged_by_id" INTEGER,
    "merge_commit_sha" TEXT,
    "merge_style" TEXT,

    CONSTRAINT "pull_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "issues_repo_id_is_pull_state_updated_at_idx" ON "issues"("repo_id", "is_pull", "state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "issues_repo_id_index_key" ON "issues"("repo_id", "index");

-- CreateIndex
CREATE INDEX "issue_comments_issue_id_created_at_idx" ON "issue_comments"("issue_id", "created_at");

-- CreateIndex
CREATE INDEX "issue_comments_repo_id_idx" ON "issue_comments"("repo_id");

-- CreateIndex
CREATE UNIQUE INDEX "pull_requests_issue_id_key" ON "pull_requests"("issue_id");

-- CreateIndex
CREATE INDEX "pull_requests_repo_id_base_branch_idx" ON "pull_requests"("repo_id", "base_branch");

-- CreateIndex
CREATE INDEX "pull_requests_repo_id_head_branch_idx" ON "pull_requests"("repo_id", "head_branch");

-- AddForeignKey
ALTER TABLE "issue_comments" ADD CONSTRAINT "issue_comments_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pull_requests" ADD CONSTRAINT "pull_requests_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;
