-- Issue 23: the environment this database belongs to, one row at most (the CHECK on the key). The
-- first migration run through the API or `pnpm db:migrate` writes it from APP_ENV; an API whose
-- APP_ENV differs refuses to start (a staging API on the production database would serve
-- production orders and adopters' personal data to staging keys). Changed only on purpose:
-- `pnpm db:environment --set <environment>`.

-- CreateTable
CREATE TABLE "database_environment" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "environment" "api_key_environment" NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "database_environment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "database_environment_one_row" CHECK ("id")
);
