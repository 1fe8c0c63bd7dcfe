-- Issue 15: the animal's profile (what adopters choose by) and its photos.

-- CreateEnum
CREATE TYPE "pet_sex" AS ENUM ('male', 'female', 'unknown');

-- CreateEnum
CREATE TYPE "pet_age" AS ENUM ('baby', 'young', 'adult', 'senior');

-- CreateEnum
CREATE TYPE "pet_size" AS ENUM ('small', 'medium', 'large', 'xlarge');

-- AlterTable: every field may be unknown (NULL), so existing animals need no value.
ALTER TABLE "pets" ADD COLUMN "description" VARCHAR(2000),
ADD COLUMN "sex" "pet_sex",
ADD COLUMN "age" "pet_age",
ADD COLUMN "size" "pet_size",
ADD COLUMN "breed" VARCHAR(100),
ADD COLUMN "arrived_at" DATE;

-- CreateIndex: the sex, age and size filters of listPets, newest first, one index each.
CREATE INDEX "pets_sex_id_idx" ON "pets"("sex", "id" DESC);

-- CreateIndex
CREATE INDEX "pets_age_id_idx" ON "pets"("age", "id" DESC);

-- CreateIndex
CREATE INDEX "pets_size_id_idx" ON "pets"("size", "id" DESC);

-- The name search of listPets: the words of the name, each a prefix match (`bis:*`). Built into
-- PostgreSQL (and PGlite): no extension. The 'simple' configuration lower-cases and keeps every
-- word (no stemming, no stop words: names are not prose). Not in schema.prisma, which cannot
-- describe an index on an expression; the repository's statement uses the same expression.
CREATE INDEX "pets_name_search_idx" ON "pets" USING GIN (to_tsvector('simple'::regconfig, "name"));

-- CreateTable
CREATE TABLE "pet_photos" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "placeholder" VARCHAR(48) NOT NULL,
    "sizes" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pet_photos_pkey" PRIMARY KEY ("id")
);

-- CreateIndex: an animal's photos in their order; also serves the foreign key.
CREATE INDEX "pet_photos_pet_id_position_idx" ON "pet_photos"("pet_id", "position");

-- AddForeignKey
ALTER TABLE "pet_photos" ADD CONSTRAINT "pet_photos_pet_id_fkey" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
