-- AlterTable
ALTER TABLE "users" ADD COLUMN     "diff_view_style" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "hide_activity" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hide_email" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "theme" TEXT NOT NULL DEFAULT '';
