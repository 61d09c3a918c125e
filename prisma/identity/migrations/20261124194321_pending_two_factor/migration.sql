-- CreateTable
CREATE TABLE "pending_two_factors" (
    "user_id" INTEGER NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_two_factors_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "pending_two_factors" ADD CONSTRAINT "pending_two_factors_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
