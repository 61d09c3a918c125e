-- CreateTable
CREATE TABLE "webhooks" (
    "id" SERIAL NOT NULL,
    "repo_id" INTEGER NOT NULL DEFAULT 0,
    "owner_id" INTEGER NOT NULL DEFAULT 0,
    "is_system_webhook" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "http_method" TEXT NOT NULL DEFAULT 'POST',
    "content_type" TEXT NOT NULL DEFAULT 'json',
    "secret_sealed" TEXT,
    "authorization_sealed" TEXT,
    "events" TEXT[],
    "send_everything" BOOLEAN NOT NULL DEFAULT false,
    "branch_filter" TEXT NOT NULL DEFAULT '',
    "meta" JSONB NOT NULL DEFAULT '{}',
    "is_active" BOOLEAN NOT NULL DEFAULT false,
    "copied_from_hook_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hook_deliveries" (
    "id" SERIAL NOT NULL,
    "guid" UUID NOT NULL,
    "hook_id" INTEGER NOT NULL,
    "repo_id" INTEGER NOT NULL DEFAULT 0,
    "event_id" UUID,
    "event_key" TEXT NOT NULL DEFAULT '',
    "event" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "action" TEXT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "round_start" INTEGER NOT NULL DEFAULT 0,
    "redelivery" BOOLEAN NOT NULL DEFAULT false,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claim_token" UUID,
    "lease_until" TIMESTAMP(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "last_duration_ms" INTEGER,
    "last_attempt_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "hook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hook_delivery_attempts" (
    "id" SERIAL NOT NULL,
    "delivery_id" INTEGER NOT NULL,
    "number" INTEGER NOT NULL,
    "redelivery" BOOLEAN NOT NULL DEFAULT false,
    "url" TEXT NOT NULL,
    "method" TEXT NOT NULL DEFAULT 'POST',
    "request_headers" JSONB NOT NULL,
    "request_body" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_headers" JSONB,
    "response_body" TEXT,
    "error" TEXT,
    "outcome" TEXT NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "hook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhooks_repo_id_is_active_idx" ON "webhooks"("repo_id", "is_active");

-- CreateIndex
CREATE INDEX "webhooks_owner_id_repo_id_idx" ON "webhooks"("owner_id", "repo_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhooks_repo_copy_key" ON "webhooks"("repo_id", "copied_from_hook_id");

-- CreateIndex
CREATE UNIQUE INDEX "hook_deliveries_guid_key" ON "hook_deliveries"("guid");

-- CreateIndex
CREATE INDEX "hook_deliveries_hook_id_id_idx" ON "hook_deliveries"("hook_id", "id");

-- CreateIndex
CREATE INDEX "hook_deliveries_status_next_attempt_at_idx" ON "hook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "hook_deliveries_event_hook_key" ON "hook_deliveries"("event_id", "hook_id", "event_key");

-- CreateIndex
CREATE UNIQUE INDEX "hook_delivery_attempts_delivery_id_number_key" ON "hook_delivery_attempts"("delivery_id", "number");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "hook_deliveries" ADD CONSTRAINT "hook_deliveries_hook_id_fkey" FOREIGN KEY ("hook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hook_delivery_attempts" ADD CONSTRAINT "hook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "hook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
