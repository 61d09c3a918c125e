-- AlterTable
ALTER TABLE "repositories" ADD COLUMN     "num_stars" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "num_watches" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "repo_follows" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repo_follows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "repo_follows_kind_user_id_idx" ON "repo_follows"("kind", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "repo_follows_kind_repo_id_user_id_key" ON "repo_follows"("kind", "repo_id", "user_id");

-- AddForeignKey
ALTER TABLE "repo_follows" ADD CONSTRAINT "repo_follows_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
