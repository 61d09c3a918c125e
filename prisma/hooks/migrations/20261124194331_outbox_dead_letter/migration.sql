-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failed_at" TIMESTAMP(3),
ADD COLUMN     "last_error" TEXT;
