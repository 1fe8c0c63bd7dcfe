-- The staff's daily digest (STAFF_DIGEST=daily) lists the applications placed in a window of time.

-- CreateIndex
CREATE INDEX "orders_placed_at_idx" ON "orders"("placed_at");
