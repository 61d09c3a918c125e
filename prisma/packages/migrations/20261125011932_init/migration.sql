-- CreateTable
CREATE TABLE "package" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "repo_id" INTEGER,
    "semver_compatible" BOOLEAN NOT NULL DEFAULT false,
    "is_internal" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "package_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "package_version" (
    "id" SERIAL NOT NULL,
    "package_id" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "lower_version" TEXT NOT NULL,
    "creator_id" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "is_internal" BOOLEAN NOT NULL DEFAULT false,
    "download_count" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "package_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "package_file" (
    "id" SERIAL NOT NULL,
    "version_id" INTEGER NOT NULL,
    "blob_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "composite_key" TEXT NOT NULL DEFAULT '',
    "is_lead" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "package_file_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "package_blob" (
    "id" SERIAL NOT NULL,
    "size" BIGINT NOT NULL,
    "hash_md5" TEXT NOT NULL,
    "hash_sha1" TEXT NOT NULL,
    "hash_sha256" TEXT NOT NULL,
    "hash_sha512" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unreferenced_since" TIMESTAMP(3),

    CONSTRAINT "package_blob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "package_property" (
    "id" SERIAL NOT NULL,
    "ref_type" TEXT NOT NULL,
    "ref_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "package_property_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "package_blob_upload" (
    "id" TEXT NOT NULL,
    "owner_id" INTEGER NOT NULL,
    "bytes_received" BIGINT NOT NULL DEFAULT 0,
    "temp_path" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "package_blob_upload_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consumed_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "consumed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consumed_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "failed_at" TIMESTAMP(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "package_repo_id_idx" ON "package"("repo_id");

-- CreateIndex
CREATE UNIQUE INDEX "package_owner_type_lower_name_key" ON "package"("owner_id", "type", "lower_name");

-- CreateIndex
CREATE INDEX "package_version_created_at_idx" ON "package_version"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "package_version_package_lower_version_key" ON "package_version"("package_id", "lower_version");

-- CreateIndex
CREATE INDEX "package_file_blob_id_idx" ON "package_file"("blob_id");

-- CreateIndex
CREATE UNIQUE INDEX "package_file_version_lower_name_key" ON "package_file"("version_id", "lower_name", "composite_key");

-- CreateIndex
CREATE UNIQUE INDEX "package_blob_hash_sha256_key" ON "package_blob"("hash_sha256");

-- CreateIndex
CREATE INDEX "package_blob_unreferenced_since_idx" ON "package_blob"("unreferenced_since");

-- CreateIndex
CREATE INDEX "package_property_ref_type_ref_id_idx" ON "package_property"("ref_type", "ref_id");

-- CreateIndex
CREATE INDEX "package_property_ref_type_ref_id_name_idx" ON "package_property"("ref_type", "ref_id", "name");

-- CreateIndex
CREATE INDEX "package_blob_upload_updated_at_idx" ON "package_blob_upload"("updated_at");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "package_version" ADD CONSTRAINT "package_version_package_id_fkey" FOREIGN KEY ("package_id") REFERENCES "package"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "package_file" ADD CONSTRAINT "package_file_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "package_version"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "package_file" ADD CONSTRAINT "package_file_blob_id_fkey" FOREIGN KEY ("blob_id") REFERENCES "package_blob"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
