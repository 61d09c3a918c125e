-- AlterTable
ALTER TABLE "repositories" ADD COLUMN     "topics" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "repositories_topics_idx" ON "repositories" USING GIN ("topics");
