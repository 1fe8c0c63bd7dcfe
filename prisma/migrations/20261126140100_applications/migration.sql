-- Applications, many per animal: an order no longer puts its animal on hold; approving one does.

-- CreateEnum
CREATE TYPE "decline_reason" AS ENUM ('not_a_match', 'home_not_suitable', 'incomplete_application', 'no_response', 'adopted_by_another_family', 'other');

-- AlterTable: why an order was declined; both NULL unless it is.
ALTER TABLE "orders" ADD COLUMN "decline_reason" "decline_reason",
ADD COLUMN "decline_note" VARCHAR(1000);

-- AlterTable: the animal's open applications still in review (placed or waitlisted), kept by the
-- orders repository in the transaction of every order change, so that listPets reads a column
-- instead of counting orders for each animal of a page.
ALTER TABLE "pets" ADD COLUMN "applications_in_review" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "pets_applications_in_review_check" CHECK ("applications_in_review" >= 0);

-- Existing data. Until now, placing an order set its animal `pending` at once. From now on only
-- an approved application holds an animal, so an animal that is `pending` only because of a
-- `placed` order (no approved one) is `available` again: otherwise nobody else could apply, and
-- the store could not approve the placed order either (approving needs an available animal).
-- An animal set `pending` by the store without any open order stays `pending`.
UPDATE "pets" SET "status" = 'available'
WHERE "status" = 'pending'
  AND EXISTS (SELECT 1 FROM "orders" WHERE "orders"."pet_id" = "pets"."id" AND "orders"."status" = 'placed')
  AND NOT EXISTS (SELECT 1 FROM "orders" WHERE "orders"."pet_id" = "pets"."id" AND "orders"."status" = 'approved');

UPDATE "pets" SET "applications_in_review" = counted."total"
FROM (
  SELECT "pet_id", count(*)::integer AS "total" FROM "orders"
  WHERE "status" IN ('placed', 'waitlisted') GROUP BY "pet_id"
) AS counted
WHERE counted."pet_id" = "pets"."id";

-- DropIndex: an animal now takes any number of open applications.
DROP INDEX "orders_one_open_per_pet_key";

-- CreateIndex: one open application per adopter email and animal (emails arrive trimmed; the
-- case is ignored, as mail servers do in practice). The old index allowed one open order per
-- animal, so existing rows cannot break it.
CREATE UNIQUE INDEX "orders_one_open_per_pet_adopter_key" ON "orders"("pet_id", lower("adopter_email")) WHERE "status" IN ('placed', 'waitlisted', 'approved');

-- CreateIndex: at most one approved-or-completed application per animal: the one adopter the
-- animal is on hold for, or went home with. An animal adopted twice before this migration (sold,
-- made available again by hand, adopted again) stops the migration here: such an animal needs a
-- new record, or the older order cancelled, before it runs.
CREATE UNIQUE INDEX "orders_one_approved_per_pet_key" ON "orders"("pet_id") WHERE "status" IN ('approved', 'completed');
