-- CreateTable
CREATE TABLE "email_addresses" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "lower_email" TEXT NOT NULL,
    "is_activated" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_addresses_lower_email_key" ON "email_addresses"("lower_email");

-- CreateIndex
CREATE INDEX "email_addresses_user_id_idx" ON "email_addresses"("user_id");

-- AddForeignKey
ALTER TABLE "email_addresses" ADD CONSTRAINT "email_addresses_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
