-- An unconfirmed application is open: one per adopter email and animal, as for the others, so
-- nobody fills an animal's list with unconfirmed copies of one address. No existing row is
-- unconfirmed, so the new index holds whatever the old one held.

-- DropIndex
DROP INDEX "orders_one_open_per_pet_adopter_key";

-- CreateIndex
CREATE UNIQUE INDEX "orders_one_open_per_pet_adopter_key" ON "orders"("pet_id", lower("adopter_email")) WHERE "status" IN ('unconfirmed', 'placed', 'waitlisted', 'approved');

-- CreateIndex: the schedule that cancels applications left unconfirmed finds them by age.
CREATE INDEX "orders_unconfirmed_placed_at_idx" ON "orders"("placed_at") WHERE "status" = 'unconfirmed';
