-- Issue and pull-request assignees.
CREATE TABLE "issue_assignees" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER NOT NULL,
    "assignee_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_assignees_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "issue_assignees_assignee_id_idx" ON "issue_assignees"("assignee_id");

CREATE UNIQUE INDEX "issue_assignees_issue_id_assignee_id_key" ON "issue_assignees"("issue_id", "assignee_id");

ALTER TABLE "issue_assignees" ADD CONSTRAINT "issue_assignees_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;
