-- Pull-request reviews (and review requests, as Gitea stores them) and their code comments.
CREATE TABLE "pull_reviews" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL,
    "issue_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "reviewer_id" INTEGER NOT NULL DEFAULT 0,
    "reviewer_team_id" INTEGER NOT NULL DEFAULT 0,
    "body" TEXT NOT NULL DEFAULT '',
    "commit_id" TEXT NOT NULL DEFAULT '',
    "official" BOOLEAN NOT NULL DEFAULT false,
    "dismissed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pull_reviews_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "pull_review_comments" (
    "id" SERIAL NOT NULL,
    "review_id" INTEGER NOT NULL,
    "poster_id" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "line" INTEGER NOT NULL DEFAULT 0,
    "body" TEXT NOT NULL DEFAULT '',
    "commit_id" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pull_review_comments_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "pull_reviews_issue_id_type_idx" ON "pull_reviews"("issue_id", "type");

CREATE INDEX "pull_review_comments_review_id_idx" ON "pull_review_comments"("review_id");

ALTER TABLE "pull_reviews" ADD CONSTRAINT "pull_reviews_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "pull_review_comments" ADD CONSTRAINT "pull_review_comments_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "pull_reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;
