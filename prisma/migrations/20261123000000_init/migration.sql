-- CreateEnum
CREATE TYPE "pet_status" AS ENUM ('available', 'pending', 'sold');

-- CreateEnum
CREATE TYPE "order_status" AS ENUM ('placed', 'approved', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "api_key_plan" AS ENUM ('free', 'pro', 'business', 'enterprise');

-- CreateEnum
CREATE TYPE "api_key_environment" AS ENUM ('production', 'staging');

-- CreateTable
CREATE TABLE "categories" (
    "id" BIGSERIAL NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "categories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pets" (
    "id" BIGSERIAL NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "category_id" BIGINT NOT NULL,
    "status" "pet_status" NOT NULL DEFAULT 'available',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" BIGSERIAL NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "environment" "api_key_environment" NOT NULL,
    "plan" "api_key_plan" NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "start" VARCHAR(32) NOT NULL,
    "rate_limit_per_minute" INTEGER,
    "rate_limit_per_day" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" BIGSERIAL NOT NULL,
    "pet_id" BIGINT NOT NULL,
    "api_key_id" BIGINT NOT NULL,
    "status" "order_status" NOT NULL DEFAULT 'placed',
    "placed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "categories_name_key" ON "categories"("name");

-- CreateIndex
CREATE INDEX "pets_status_id_idx" ON "pets"("status", "id" DESC);

-- CreateIndex
CREATE INDEX "pets_category_id_idx" ON "pets"("category_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_start_idx" ON "api_keys"("start");

-- CreateIndex
CREATE INDEX "orders_api_key_id_id_idx" ON "orders"("api_key_id", "id" DESC);

-- CreateIndex
CREATE INDEX "orders_api_key_id_status_id_idx" ON "orders"("api_key_id", "status", "id" DESC);

-- CreateIndex
CREATE INDEX "orders_pet_id_idx" ON "orders"("pet_id");

-- AddForeignKey
ALTER TABLE "pets" ADD CONSTRAINT "pets_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_pet_id_fkey" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
