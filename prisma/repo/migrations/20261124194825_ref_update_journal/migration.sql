-- CreateTable
CREATE TABLE "ref_update_journal" (
    "id" UUID NOT NULL,
    "recorded_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ref_update_journal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ref_update_journal_recorded_at_idx" ON "ref_update_journal"("recorded_at");
