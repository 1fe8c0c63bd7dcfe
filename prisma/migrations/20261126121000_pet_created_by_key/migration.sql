-- Issue 23: which key created each animal, so that a partner key may change the photos of its
-- own animals only (docs/decisions.md, "Roles"). NULL for animals created before this column, by
-- the seed or by staff tools outside the API; a revoked key keeps its row, a deleted one leaves
-- NULL (only staff may then change the photos).

-- AlterTable
ALTER TABLE "pets" ADD COLUMN "created_by_api_key_id" BIGINT;

-- AddForeignKey
ALTER TABLE "pets" ADD CONSTRAINT "pets_created_by_api_key_id_fkey" FOREIGN KEY ("created_by_api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateIndex: deleting a key updates its animals through the foreign key.
CREATE INDEX "pets_created_by_api_key_id_idx" ON "pets"("created_by_api_key_id");
