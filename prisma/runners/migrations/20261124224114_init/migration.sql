-- CreateTable
CREATE TABLE "runners" (
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "owner_id" INTEGER NOT NULL DEFAULT 0,
    "repo_id" INTEGER NOT NULL DEFAULT 0,
    "description" TEXT NOT NULL DEFAULT '',
    "version" TEXT NOT NULL DEFAULT '',
    "labels" TEXT[],
    "token_hash" TEXT NOT NULL,
    "ephemeral" BOOLEAN NOT NULL DEFAULT false,
    "registration_token_id" INTEGER,
    "last_online" TIMESTAMP(3),
    "last_active" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "deleted_at" TIMESTAMP(3),

    CONSTRAINT "runners_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runner_registration_tokens" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL DEFAULT 0,
    "repo_id" INTEGER NOT NULL DEFAULT 0,
    "token_hash" TEXT NOT NULL,
    "token_sealed" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "runner_registration_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" SERIAL NOT NULL,
    "runner_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'waiting',
    "started_at" TIMESTAMP(3),
    "stopped_at" TIMESTAMP(3),
    "log_length" INTEGER NOT NULL DEFAULT 0,
    "log_size" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_logs" (
    "task_id" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "time" TIMESTAMP(3) NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "task_logs_pkey" PRIMARY KEY ("task_id","index")
);

-- CreateTable
CREATE TABLE "task_outputs" (
    "task_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "task_outputs_pkey" PRIMARY KEY ("task_id","key")
);

-- CreateTable
CREATE TABLE "variables" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL DEFAULT 0,
    "repo_id" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "variables_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "secrets" (
    "id" SERIAL NOT NULL,
    "owner_id" INTEGER NOT NULL DEFAULT 0,
    "repo_id" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "data_sealed" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "consumed_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "consumed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consumed_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "failed_at" TIMESTAMP(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "runners_uuid_key" ON "runners"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "runners_token_hash_key" ON "runners"("token_hash");

-- CreateIndex
CREATE INDEX "runners_owner_id_repo_id_deleted_at_idx" ON "runners"("owner_id", "repo_id", "deleted_at");

-- CreateIndex
CREATE INDEX "runners_repo_id_deleted_at_idx" ON "runners"("repo_id", "deleted_at");

-- CreateIndex
CREATE INDEX "runners_last_online_idx" ON "runners"("last_online" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "runner_registration_tokens_token_hash_key" ON "runner_registration_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "runner_registration_tokens_owner_id_repo_id_id_idx" ON "runner_registration_tokens"("owner_id", "repo_id", "id" DESC);

-- CreateIndex
CREATE INDEX "tasks_runner_id_status_idx" ON "tasks"("runner_id", "status");

-- CreateIndex
CREATE INDEX "variables_repo_id_idx" ON "variables"("repo_id");

-- CreateIndex
CREATE UNIQUE INDEX "variables_owner_id_repo_id_name_key" ON "variables"("owner_id", "repo_id", "name");

-- CreateIndex
CREATE INDEX "secrets_repo_id_idx" ON "secrets"("repo_id");

-- CreateIndex
CREATE UNIQUE INDEX "secrets_owner_id_repo_id_name_key" ON "secrets"("owner_id", "repo_id", "name");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_runner_id_fkey" FOREIGN KEY ("runner_id") REFERENCES "runners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_logs" ADD CONSTRAINT "task_logs_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_outputs" ADD CONSTRAINT "task_outputs_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
