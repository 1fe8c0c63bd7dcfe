-- listOrders' `updatedSince` and `sort=updatedAt`, as listPets' (20261127040000_pet_updated_at).
-- Every change of an order already sets updated_at, in the statement that changes it (the
-- repository's stamp is the statement's start, after the animal's row lock is taken, and the
-- history entry carries the same instant). This trigger keeps the stamp growing by at least 1 ms
-- per change of a row, so a walk by (updated_at, id) that already passed an order sees it again
-- after any later change, even two changes in one millisecond; a change that did not set it is
-- stamped with the statement's start.
CREATE FUNCTION "orders_keep_updated_at_growing"() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW IS DISTINCT FROM OLD THEN
    IF NEW.updated_at = OLD.updated_at THEN
      NEW.updated_at := date_trunc('milliseconds', statement_timestamp());
    END IF;
    NEW.updated_at := greatest(NEW.updated_at, OLD.updated_at + interval '1 millisecond');
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "orders_keep_updated_at_growing"
BEFORE UPDATE ON "orders"
FOR EACH ROW EXECUTE FUNCTION "orders_keep_updated_at_growing"();

-- CreateIndex: a staff key's walk, and a partner's (its own orders only).
CREATE INDEX "orders_updated_at_id_idx" ON "orders"("updated_at", "id");
CREATE INDEX "orders_api_key_id_updated_at_id_idx" ON "orders"("api_key_id", "updated_at", "id");
