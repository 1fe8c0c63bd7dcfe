-- Issue 15: the planner's view of the profile filters together. Each of sex, age and size has an
-- index (pets_sex_id_idx, ...), and a page of a filtered list is one scan that stops after the
-- page. Which scan is only as good as the planner's estimate of how many animals match: taken
-- column by column, it multiplies the shares, which is wrong for attributes that go together (no
-- fish is extra large; kittens are small), and walking the newest animals for a combination
-- estimated common but absent reads the whole table. Multivariate statistics (the most common
-- combinations and their frequencies, and functional dependencies, refreshed by ANALYZE) keep
-- the estimate right (docs/decisions.md, "Animal profiles").

-- CreateStatistics
CREATE STATISTICS "pets_profile_stats" (mcv, dependencies) ON "sex", "age", "size" FROM "pets";

-- CreateStatistics: each attribute with the kind of animal and the status, which it depends on.
CREATE STATISTICS "pets_category_profile_stats" (mcv, dependencies) ON "category_id", "status", "sex", "age", "size" FROM "pets";
