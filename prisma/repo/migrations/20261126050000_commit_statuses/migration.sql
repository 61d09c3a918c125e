-- Commit statuses (Gitea's commit_status and commit_status_index): apps/repo-service/src/commit-statuses.
-- CreateTable
CREATE TABLE "commit_statuses" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "sha" VARCHAR(64) NOT NULL,
    "index" INTEGER NOT NULL,
    "state" VARCHAR(7) NOT NULL,
    "target_url" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "context" TEXT NOT NULL DEFAULT '',
    "creator_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commit_statuses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commit_status_indexes" (
    "repo_id" INTEGER NOT NULL,
    "sha" VARCHAR(64) NOT NULL,
    "max_index" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "commit_status_indexes_pkey" PRIMARY KEY ("repo_id","sha")
);

-- CreateIndex
CREATE INDEX "commit_statuses_repo_id_sha_context_idx" ON "commit_statuses"("repo_id", "sha", "context");

-- CreateIndex
CREATE UNIQUE INDEX "commit_statuses_repo_id_sha_index_key" ON "commit_statuses"("repo_id", "sha", "index");

-- AddForeignKey
ALTER TABLE "commit_statuses" ADD CONSTRAINT "commit_statuses_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "commit_status_indexes" ADD CONSTRAINT "commit_status_indexes_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
