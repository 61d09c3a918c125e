-- AlterTable
ALTER TABLE "public_keys" ADD COLUMN     "verified" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "keys_version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "gpg_keys" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "key_id" TEXT NOT NULL,
    "primary_id" INTEGER,
    "public_key" TEXT NOT NULL,
    "armored" TEXT NOT NULL DEFAULT '',
    "uid_emails" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "can_sign" BOOLEAN NOT NULL,
    "can_encrypt_comms" BOOLEAN NOT NULL,
    "can_encrypt_storage" BOOLEAN NOT NULL,
    "can_certify" BOOLEAN NOT NULL,

    CONSTRAINT "gpg_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "gpg_keys_key_id_key" ON "gpg_keys"("key_id");

-- CreateIndex
CREATE INDEX "gpg_keys_user_id_primary_id_idx" ON "gpg_keys"("user_id", "primary_id");

-- CreateIndex
CREATE INDEX "gpg_keys_primary_id_idx" ON "gpg_keys"("primary_id");

-- AddForeignKey
ALTER TABLE "gpg_keys" ADD CONSTRAINT "gpg_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gpg_keys" ADD CONSTRAINT "gpg_keys_primary_id_fkey" FOREIGN KEY ("primary_id") REFERENCES "gpg_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
