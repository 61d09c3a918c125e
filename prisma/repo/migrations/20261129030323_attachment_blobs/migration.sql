-- AlterTable
ALTER TABLE "release_attachments" ADD COLUMN     "sha256" CHAR(64);

-- CreateIndex
CREATE INDEX "release_attachments_sha256_idx" ON "release_attachments"("sha256");
