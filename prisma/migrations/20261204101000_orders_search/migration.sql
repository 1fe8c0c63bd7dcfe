-- listOrders' `q` by name: the words of the adopter's name, each a prefix match (`ann:*`), as the
-- animals' name search (20261123150000_pet_profiles): 'simple' lower-cases and keeps every word.
-- Without it a search walks every order. The other searches use what exists: a reference is the
-- primary key, an email address orders_adopter_email_id_idx. Not in schema.prisma, which cannot
-- describe an index on an expression; the repository's statement uses the same expression.
CREATE INDEX "orders_adopter_name_search_idx" ON "orders" USING GIN (to_tsvector('simple'::regconfig, "adopter_name"));
