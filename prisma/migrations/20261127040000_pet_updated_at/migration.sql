-- Every Pet says when it last changed (`updatedAt`), so a partner can ask for what changed since
-- its last sync (listPets' `updatedSince`, `sort=updatedAt`). The animal's row is written by
-- several paths: updatePet, the photos' trigger (photo_list), and the order changes
-- (status, applications_in_review). A trigger of the database stamps every one of them, so no
-- path can forget, and an UPDATE that changes nothing the API shows keeps the stamp.
--
-- The stamp is the clock at the write (clock_timestamp(), after the row lock is taken), not the
-- transaction's start (now()): two transactions that change one animal one after the other then
-- stamp it in that order. It also always grows by at least 1 ms per change of a row, so a walk
-- by (updated_at, id) that already passed a row sees it again after any later change.

-- AlterTable: existing animals last changed, as far as anyone can tell, when they were created.
ALTER TABLE "pets" ADD COLUMN "updated_at" TIMESTAMPTZ(3);
UPDATE "pets" SET "updated_at" = "created_at";
ALTER TABLE "pets" ALTER COLUMN "updated_at" SET DEFAULT CURRENT_TIMESTAMP, ALTER COLUMN "updated_at" SET NOT NULL;

CREATE FUNCTION "pets_stamp_updated_at"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := OLD.updated_at;
  IF NEW IS DISTINCT FROM OLD THEN
    NEW.updated_at := greatest(
      date_trunc('milliseconds', clock_timestamp()),
      OLD.updated_at + interval '1 millisecond'
    );
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "pets_stamp_updated_at"
BEFORE UPDATE ON "pets"
FOR EACH ROW EXECUTE FUNCTION "pets_stamp_updated_at"();

-- CreateIndex: listPets with sort=updatedAt walks (updated_at, id) ascending from the cursor.
CREATE INDEX "pets_updated_at_id_idx" ON "pets"("updated_at", "id");
