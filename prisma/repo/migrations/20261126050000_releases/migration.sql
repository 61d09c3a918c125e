-- CreateTable
CREATE TABLE "releases" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "tag_name" TEXT NOT NULL,
    "lower_tag_name" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "title" TEXT NOT NULL DEFAULT '',
    "note" TEXT NOT NULL DEFAULT '',
    "is_draft" BOOLEAN NOT NULL DEFAULT false,
    "is_prerelease" BOOLEAN NOT NULL DEFAULT false,
    "publisher_id" INTEGER NOT NULL,
    "sha1" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "releases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "releases_repo_id_created_at_idx" ON "releases"("repo_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "releases_repo_id_lower_tag_name_key" ON "releases"("repo_id", "lower_tag_name");

-- AddForeignKey
ALTER TABLE "releases" ADD CONSTRAINT "releases_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
