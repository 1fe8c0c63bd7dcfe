-- Issue 28: the details adopters ask about. Every field may be unknown (NULL; colours: none
-- listed), so existing animals need no value and no table rewrite (PostgreSQL 11+ adds a column
-- with a constant default without one).

-- CreateEnum
CREATE TYPE "pet_energy_level" AS ENUM ('low', 'medium', 'high');

-- CreateEnum
CREATE TYPE "pet_coat_length" AS ENUM ('hairless', 'short', 'medium', 'long');

-- CreateEnum
CREATE TYPE "pet_color" AS ENUM ('black', 'white', 'grey', 'brown', 'red', 'ginger', 'cream', 'golden', 'tan', 'blue', 'silver', 'yellow', 'green', 'orange', 'brindle', 'tabby', 'tortoiseshell', 'calico', 'spotted', 'merle');

-- AlterTable
ALTER TABLE "pets" ADD COLUMN "good_with_children" BOOLEAN,
ADD COLUMN "good_with_dogs" BOOLEAN,
ADD COLUMN "good_with_cats" BOOLEAN,
ADD COLUMN "house_trained" BOOLEAN,
ADD COLUMN "spayed_neutered" BOOLEAN,
ADD COLUMN "vaccinated" BOOLEAN,
ADD COLUMN "special_needs" BOOLEAN,
ADD COLUMN "special_needs_note" VARCHAR(500),
ADD COLUMN "energy_level" "pet_energy_level",
ADD COLUMN "coat_length" "pet_coat_length",
ADD COLUMN "colors" "pet_color"[] NOT NULL DEFAULT ARRAY[]::"pet_color"[],
ADD COLUMN "adoption_fee_amount" INTEGER,
ADD COLUMN "adoption_fee_currency" CHAR(3);

-- What the contract already refuses, kept by the database too (schema.prisma cannot say these):
-- at most three colours (none twice is the contract's alone: a CHECK cannot hold a subquery); a fee is an amount and a currency, or neither; an amount is
-- never negative; a currency is three capital letters (ISO 4217's form).
ALTER TABLE "pets" ADD CONSTRAINT "pets_colors_check"
  CHECK (cardinality("colors") <= 3);
ALTER TABLE "pets" ADD CONSTRAINT "pets_adoption_fee_check"
  CHECK (("adoption_fee_amount" IS NULL) = ("adoption_fee_currency" IS NULL)
    AND ("adoption_fee_amount" IS NULL OR "adoption_fee_amount" >= 0)
    AND ("adoption_fee_currency" IS NULL OR "adoption_fee_currency" ~ '^[A-Z]{3}$'));
