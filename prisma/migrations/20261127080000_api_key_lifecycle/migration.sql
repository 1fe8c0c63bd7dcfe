-- Key lifecycle: an optional expiry, the time of last use (written in batches by the usage
-- counter), and a roll that keeps the key's row (and so its id, orders, webhooks and rate-limit
-- tracker): the old hash moves to previous_hash and keeps working until previous_hash_expires_at,
-- as webhook_endpoints.previous_secret does (docs/decisions.md, "Rolling a key").
-- Usage per key, hour and status class, added to by every API process's counter in batches
-- (docs/decisions.md, "Usage counted in batches").

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "last_used_at" TIMESTAMPTZ(3),
ADD COLUMN "previous_hash" CHAR(64),
ADD COLUMN "previous_hash_expires_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_previous_hash_key" ON "api_keys"("previous_hash");

-- CreateTable
CREATE TABLE "api_key_usage_hourly" (
    "api_key_id" BIGINT NOT NULL,
    "hour" TIMESTAMPTZ(0) NOT NULL,
    "status_class" VARCHAR(4) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "api_key_usage_hourly_pkey" PRIMARY KEY ("api_key_id","hour","status_class"),
    CONSTRAINT "api_key_usage_hourly_status_class_check" CHECK ("status_class" IN ('2xx', '3xx', '4xx', '429', '5xx')),
    CONSTRAINT "api_key_usage_hourly_count_check" CHECK ("count" >= 0)
);

-- CreateIndex
CREATE INDEX "api_key_usage_hourly_hour_idx" ON "api_key_usage_hourly"("hour");

-- AddForeignKey
ALTER TABLE "api_key_usage_hourly" ADD CONSTRAINT "api_key_usage_hourly_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
