-- An application's "who lives with you" and "other animals at home", as the adopter wrote them:
-- what staff compare side by side for one animal. Optional; NULL when not given.

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "household" VARCHAR(200),
ADD COLUMN "other_animals" VARCHAR(200);
