-- CreateTable
CREATE TABLE "release_attachments" (
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "release_id" INTEGER NOT NULL,
    "uploader_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "download_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "release_attachments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "release_attachments_uuid_key" ON "release_attachments"("uuid");

-- CreateIndex
CREATE INDEX "release_attachments_release_id_id_idx" ON "release_attachments"("release_id", "id");

-- CreateIndex
CREATE INDEX "release_attachments_repo_id_idx" ON "release_attachments"("repo_id");

-- AddForeignKey
ALTER TABLE "release_attachments" ADD CONSTRAINT "release_attachments_release_id_fkey" FOREIGN KEY ("release_id") REFERENCES "releases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
