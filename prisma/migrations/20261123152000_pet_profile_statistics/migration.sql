-- Issue 15: the planner's view of the profile filters together. Each of sex, age and size has an
-- index (pets_sex_id_idx, ...), and a page of a filtered list is one scan that stops after the
-- page. Which scan is only as good as the planner's estimate of how many animals match: taken
-- column by column, it multiplies the shares (10% senior x 5% extra large x 3% unknown), which is
-- wrong for attributes that go together (no fish is extra large; kittens are small). Walking the
-- newest animals when almost none match reads the whole table. Multivariate statistics (the most
-- common combinations and their frequencies, refreshed by ANALYZE) let it see a rare or absent
-- combination and pick the indexes instead (docs/decisions.md, "Animal profiles").

-- CreateStatistics
CREATE STATISTICS "pets_profile_stats" (mcv, dependencies) ON "sex", "age", "size" FROM "pets";

-- CreateStatistics: each attribute with the kind of animal and the status, which it depends on.
CREATE STATISTICS "pets_category_profile_stats" (mcv, dependencies) ON "category_id", "status", "sex", "age", "size" FROM "pets";
