-- DropIndex
DROP INDEX "pets_category_id_idx";

-- CreateIndex
CREATE INDEX "pets_category_id_id_idx" ON "pets"("category_id", "id" DESC);

-- CreateIndex
CREATE INDEX "pets_category_id_status_id_idx" ON "pets"("category_id", "status", "id" DESC);
