-- The outbox of email: a row per message, written in the same transaction as the change it
-- reports, beside a job of the queue (pg-boss, its own schema "pgboss") that names it. The worker
-- sends it and records `sent_at`; a crash anywhere leaves either no row (the change rolled back
-- too) or a row the job's retry sends (apps/api/src/mail).

-- CreateTable
CREATE TABLE "mail_messages" (
    "id" BIGSERIAL NOT NULL,
    "template" VARCHAR(64) NOT NULL,
    "recipient" VARCHAR(254) NOT NULL,
    "data" JSONB NOT NULL,
    "order_id" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" VARCHAR(500),

    CONSTRAINT "mail_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mail_messages_order_id_id_idx" ON "mail_messages"("order_id", "id");

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;
