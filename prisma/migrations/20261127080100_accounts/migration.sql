-- People, not keys (issue 27, slice 2): organisations of developers, accounts of people with an
-- argon2id password, their sessions, the audit log, and the api_keys columns that make a
-- session's credential an api_keys row of kind 'session' (docs/decisions.md, "Sessions").
-- The key-lifecycle columns (expires_at, previous_hash ...) are migration 20261127080000's.

-- CreateEnum
CREATE TYPE "account_role" AS ENUM ('admin', 'staff', 'developer');
CREATE TYPE "account_status" AS ENUM ('invited', 'active', 'deactivated');
CREATE TYPE "api_key_kind" AS ENUM ('key', 'session');

-- CreateTable
CREATE TABLE "organizations" (
    "id" BIGSERIAL NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "plan" "api_key_plan" NOT NULL DEFAULT 'free',
    "rate_limit_per_minute" INTEGER,
    "rate_limit_per_day" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id"),
    -- Custom limits are for enterprise organisations only.
    CONSTRAINT "organizations_custom_limits_check" CHECK (
        "plan" = 'enterprise' OR ("rate_limit_per_minute" IS NULL AND "rate_limit_per_day" IS NULL)
    )
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" BIGSERIAL NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "role" "account_role" NOT NULL,
    "status" "account_status" NOT NULL DEFAULT 'active',
    "password_hash" TEXT,
    "password_changed_at" TIMESTAMPTZ(3),
    "email_verified_at" TIMESTAMPTZ(3),
    "organization_id" BIGINT,
    "invited_by_id" BIGINT,
    "invited_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"),
    -- A developer belongs to an organisation; staff and admins to none.
    CONSTRAINT "accounts_organization_check" CHECK (("role" = 'developer') = ("organization_id" IS NOT NULL)),
    -- Only an invited account may lack a password.
    CONSTRAINT "accounts_password_check" CHECK ("status" = 'invited' OR "password_hash" IS NOT NULL)
);

-- One account per address, whatever its case (an expression: not expressible in schema.prisma).
CREATE UNIQUE INDEX "accounts_email_lower_key" ON "accounts"(lower("email"));
CREATE INDEX "accounts_organization_id_idx" ON "accounts"("organization_id");

-- CreateTable
CREATE TABLE "account_sessions" (
    "id" BIGSERIAL NOT NULL,
    "account_id" BIGINT NOT NULL,
    "method" VARCHAR(16) NOT NULL,
    "idle_seconds" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "ended_reason" VARCHAR(32),
    "user_agent" VARCHAR(200),
    "visitor_ip" VARCHAR(45),

    CONSTRAINT "account_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "account_sessions_method_check" CHECK ("method" IN ('password', 'passkey')),
    CONSTRAINT "account_sessions_idle_check" CHECK ("idle_seconds" > 0),
    CONSTRAINT "account_sessions_ended_check" CHECK (("ended_at" IS NULL) = ("ended_reason" IS NULL))
);

CREATE INDEX "account_sessions_account_id_id_idx" ON "account_sessions"("account_id", "id" DESC);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_account_id" BIGINT,
    "actor_api_key_id" BIGINT,
    "actor_name" VARCHAR(100) NOT NULL,
    "action" VARCHAR(64) NOT NULL,
    "target_type" VARCHAR(32) NOT NULL,
    "target_id" VARCHAR(64) NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "visitor_ip" VARCHAR(45),

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_log_actor_account_id_id_idx" ON "audit_log"("actor_account_id", "id" DESC);
CREATE INDEX "audit_log_action_id_idx" ON "audit_log"("action", "id" DESC);
CREATE INDEX "audit_log_target_type_target_id_id_idx" ON "audit_log"("target_type", "target_id", "id" DESC);
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");

-- AlterTable
ALTER TABLE "api_keys"
    ADD COLUMN "kind" "api_key_kind" NOT NULL DEFAULT 'key',
    ADD COLUMN "account_id" BIGINT,
    ADD COLUMN "session_id" BIGINT,
    ADD COLUMN "organization_id" BIGINT,
    ADD COLUMN "created_by_account_id" BIGINT,
    ADD CONSTRAINT "api_keys_kind_session_check" CHECK (("kind" = 'session') = ("session_id" IS NOT NULL));

CREATE UNIQUE INDEX "api_keys_session_id_key" ON "api_keys"("session_id");
CREATE INDEX "api_keys_organization_id_id_idx" ON "api_keys"("organization_id", "id" DESC);
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "account_sessions" ADD CONSTRAINT "account_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_account_id_fkey" FOREIGN KEY ("actor_account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "account_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_account_id_fkey" FOREIGN KEY ("created_by_account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
