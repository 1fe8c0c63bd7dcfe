-- Staff notes on an application: private to the store, each signed with the staff key's name
-- as it was when the note was written (a key renamed or revoked later keeps its notes' author).

-- CreateTable
CREATE TABLE "order_notes" (
    "id" BIGSERIAL NOT NULL,
    "order_id" BIGINT NOT NULL,
    "api_key_id" BIGINT NOT NULL,
    "author" VARCHAR(100) NOT NULL,
    "text" VARCHAR(2000) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex: an application's notes in order; also serves the foreign key.
CREATE INDEX "order_notes_order_id_id_idx" ON "order_notes"("order_id", "id");

-- CreateIndex: serves the foreign key to api_keys.
CREATE INDEX "order_notes_api_key_id_idx" ON "order_notes"("api_key_id");

-- AddForeignKey
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
