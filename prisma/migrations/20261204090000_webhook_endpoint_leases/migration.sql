-- Webhook delivery, one sender per endpoint across every process: while a worker sends to an
-- endpoint it holds the endpoint's lease (lease_until, with the token of that claim, so that only
-- the claim that took it gives it back), and an endpoint whose last attempt failed (failing_since)
-- is sent to only from the share of the senders kept for failing endpoints, so hanging ones
-- cannot hold the others back (docs/decisions.md, "Webhook delivery across processes"). A table
-- of its own, not columns of webhook_endpoints: the fan-out keeps endpoint rows locked while it
-- hands their events out, and the senders must not wait for it (nor it for them).

-- CreateTable
CREATE TABLE "webhook_endpoint_leases" (
    "endpoint_id" BIGINT NOT NULL,
    "lease_until" TIMESTAMPTZ(3),
    "lease_token" UUID,
    "failing_since" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_endpoint_leases_pkey" PRIMARY KEY ("endpoint_id")
);

-- AddForeignKey
ALTER TABLE "webhook_endpoint_leases" ADD CONSTRAINT "webhook_endpoint_leases_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every endpoint has one (the API inserts it with the endpoint).
INSERT INTO "webhook_endpoint_leases" ("endpoint_id") SELECT "id" FROM "webhook_endpoints";
