-- AlterTable
ALTER TABLE "issue_comments" ADD COLUMN     "assignee_id" INTEGER,
ADD COLUMN     "label_id" INTEGER,
ADD COLUMN     "milestone_id" INTEGER,
ADD COLUMN     "new_title" TEXT,
ADD COLUMN     "old_milestone_id" INTEGER,
ADD COLUMN     "old_title" TEXT,
ADD COLUMN     "removed_assignee" BOOLEAN NOT NULL DEFAULT false;
