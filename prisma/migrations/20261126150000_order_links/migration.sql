-- Private links to applications (issue 25): the key the API signs them with, an adopter's
-- applications by email for the email that lists them, and the per-address count of those emails.

-- CreateTable
CREATE TABLE "signing_keys" (
    "name" VARCHAR(64) NOT NULL,
    "secret" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("name")
);

-- CreateIndex: emails are compared trimmed (they arrive so) and case-insensitively.
CREATE INDEX "orders_adopter_email_id_idx" ON "orders"(lower("adopter_email"), "id" DESC);

-- CreateIndex
CREATE INDEX "mail_messages_recipient_template_created_at_idx" ON "mail_messages"("recipient", "template", "created_at");
