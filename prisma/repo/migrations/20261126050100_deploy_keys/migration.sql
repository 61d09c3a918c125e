-- CreateTable
CREATE TABLE "deploy_keys" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "read_only" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "deploy_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "deploy_keys_fingerprint_idx" ON "deploy_keys"("fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "deploy_keys_repo_id_fingerprint_key" ON "deploy_keys"("repo_id", "fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "deploy_keys_repo_id_name_key" ON "deploy_keys"("repo_id", "name");

-- AddForeignKey
ALTER TABLE "deploy_keys" ADD CONSTRAINT "deploy_keys_repo_id_fkey" FOREIGN KEY ("repo_id") REFERENCES "repositories"("id") ON DELETE CASCADE ON UPDATE CASCADE;
