-- Plan change requests (issue 27, slice 8): a developer asks for another plan for their
-- organisation; staff approve or decline it in the back office. The organisation's plan and its
-- Enterprise limits already live on "organizations" (20261127080100_accounts).

-- CreateTable
CREATE TABLE "plan_change_requests" (
    "id" BIGSERIAL NOT NULL,
    "organization_id" BIGINT NOT NULL,
    "current_plan" "api_key_plan" NOT NULL,
    "requested_plan" "api_key_plan" NOT NULL,
    "message" VARCHAR(1000),
    "status" VARCHAR(10) NOT NULL DEFAULT 'pending',
    "requested_by_id" BIGINT,
    "decided_by_id" BIGINT,
    "decided_by_name" VARCHAR(100),
    "decided_at" TIMESTAMPTZ(3),
    "decision_note" VARCHAR(1000),
    "rate_limit_per_minute" INTEGER,
    "rate_limit_per_day" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plan_change_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "plan_change_requests_status_check" CHECK (
        "status" IN ('pending', 'approved', 'declined', 'withdrawn')
    ),
    CONSTRAINT "plan_change_requests_plan_check" CHECK ("requested_plan" <> "current_plan"),
    -- Decided requests say when; pending ones do not.
    CONSTRAINT "plan_change_requests_decided_check" CHECK (
        ("status" = 'pending') = ("decided_at" IS NULL)
    ),
    -- Limits are set only when an Enterprise request is approved.
    CONSTRAINT "plan_change_requests_limits_check" CHECK (
        ("rate_limit_per_minute" IS NULL AND "rate_limit_per_day" IS NULL)
        OR ("requested_plan" = 'enterprise' AND "status" = 'approved')
    )
);

-- The queue: pending (or decided) requests, newest first.
CREATE INDEX "plan_change_requests_status_id_idx" ON "plan_change_requests"("status", "id" DESC);
CREATE INDEX "plan_change_requests_organization_id_id_idx" ON "plan_change_requests"("organization_id", "id" DESC);

-- One pending request per organisation: a second one is refused (409).
CREATE UNIQUE INDEX "plan_change_requests_one_pending_idx" ON "plan_change_requests"("organization_id") WHERE "status" = 'pending';

-- AddForeignKey
ALTER TABLE "plan_change_requests" ADD CONSTRAINT "plan_change_requests_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "plan_change_requests" ADD CONSTRAINT "plan_change_requests_requested_by_id_fkey" FOREIGN KEY ("requested_by_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "plan_change_requests" ADD CONSTRAINT "plan_change_requests_decided_by_id_fkey" FOREIGN KEY ("decided_by_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
