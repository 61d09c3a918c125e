-- AlterTable
ALTER TABLE "pull_requests" ADD COLUMN     "allow_maintainer_edit" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "head_repo_id" INTEGER;

-- CreateIndex
CREATE INDEX "pull_requests_head_repo_id_head_branch_idx" ON "pull_requests"("head_repo_id", "head_branch");
