-- AlterTable
ALTER TABLE "repositories" ADD COLUMN     "fork_id" INTEGER,
ADD COLUMN     "is_fork" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "num_forks" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "repositories_fork_id_idx" ON "repositories"("fork_id");
