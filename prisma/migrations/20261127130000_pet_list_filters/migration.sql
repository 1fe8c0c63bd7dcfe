-- listPets' detail filters and sorts at 1,000,000 animals: one index per access path that a walk
-- of the primary key cannot serve within a few hundred rows (docs/decisions.md, "The indexes of
-- the details' filters and of the sorts"). The yes/no filters other than specialNeeds=true, and
-- energyLevel, keep a share of the animals large enough (15% and more) that a page walks the
-- primary key backwards and skips the others: no index, so no cost on every write.

-- sort=name: A to Z, upper and lower case alike, ties by id; the cursor's (lower(name), id).
CREATE INDEX "pets_name_lower_id_idx" ON "pets"(lower("name"), "id");

-- sort=arrived: the latest arrival first, the unknown ones last (as the earliest possible date),
-- ties newest first; walked backwards from the cursor's (arrival, id).
CREATE INDEX "pets_arrived_at_id_idx" ON "pets"(COALESCE("arrived_at", '-infinity'::date), "id");

-- feeMax (with feeCurrency) and feeCurrency: the fees of one currency up to an amount. A low
-- feeMax matches few animals (free adoptions), which a walk of the primary key would not find
-- without reading the whole table; a high one, most, which the primary key's walk serves.
CREATE INDEX "pets_adoption_fee_idx" ON "pets"("adoption_fee_currency", "adoption_fee_amount");

-- coatLength: four values, one of them rare in most stores (hairless), like size's.
CREATE INDEX "pets_coat_length_id_idx" ON "pets"("coat_length", "id" DESC);

-- specialNeeds=true: the one yes/no answer that is rare (a few animals in a hundred); only those
-- rows are in the index, so it stays small.
CREATE INDEX "pets_special_needs_id_idx" ON "pets"("id" DESC) WHERE "special_needs";
