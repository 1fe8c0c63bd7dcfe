-- Saved searches (issue 28): "email me when a new animal matches". A row per search: the address,
-- the listPets filter it saved (validated by the contract's ZSavedSearchFilter), and the SHA-256
-- of its confirm and unsubscribe tokens (the tokens themselves are never stored: the mail worker
-- signs them when it writes each email, apps/api/src/links/saved-search-links.ts). Unconfirmed
-- rows get no alert; `last_alert_at` keeps alerts to one a day per search.

-- CreateTable
CREATE TABLE "saved_searches" (
    "id" BIGSERIAL NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "filter" JSONB NOT NULL,
    "confirm_token_hash" CHAR(64) NOT NULL,
    "unsubscribe_token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmed_at" TIMESTAMPTZ(3),
    "last_alert_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),

    CONSTRAINT "saved_searches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "saved_searches_confirm_token_hash_key" ON "saved_searches"("confirm_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "saved_searches_unsubscribe_token_hash_key" ON "saved_searches"("unsubscribe_token_hash");

-- CreateIndex
CREATE INDEX "saved_searches_email_created_at_idx" ON "saved_searches"("email", "created_at");
