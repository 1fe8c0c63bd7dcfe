-- Issue 13: key roles, and orders as the adoption workflow.

-- CreateEnum
CREATE TYPE "api_key_role" AS ENUM ('partner', 'staff');

-- AlterTable: every existing key becomes a partner key that may write, as keys were until now.
ALTER TABLE "api_keys" ADD COLUMN "role" "api_key_role" NOT NULL DEFAULT 'partner',
ADD COLUMN "read_only" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable: nothing could create orders before this migration; a row that exists anyway (typed
-- in by hand) gets an empty adopter rather than blocking the migration.
ALTER TABLE "orders" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "adopter_name" VARCHAR(100) NOT NULL DEFAULT '',
ADD COLUMN "adopter_email" VARCHAR(254) NOT NULL DEFAULT '',
ADD COLUMN "adopter_phone" VARCHAR(32),
ADD COLUMN "message" VARCHAR(1000),
ADD COLUMN "history" JSONB NOT NULL DEFAULT '[]';

UPDATE "orders" SET "updated_at" = "placed_at";

ALTER TABLE "orders" ALTER COLUMN "adopter_name" DROP DEFAULT,
ALTER COLUMN "adopter_email" DROP DEFAULT;

-- DropIndex: replaced by the (pet_id, id DESC) index, which also serves the foreign key.
DROP INDEX "orders_pet_id_idx";

-- CreateIndex
CREATE INDEX "orders_status_id_idx" ON "orders"("status", "id" DESC);

-- CreateIndex
CREATE INDEX "orders_pet_id_id_idx" ON "orders"("pet_id", "id" DESC);

-- At most one open (placed or approved) order per animal, whatever the code does. Rows that
-- break it cannot exist yet (nothing created orders), so the index builds on any database.
CREATE UNIQUE INDEX "orders_one_open_per_pet_key" ON "orders"("pet_id") WHERE "status" IN ('placed', 'approved');
