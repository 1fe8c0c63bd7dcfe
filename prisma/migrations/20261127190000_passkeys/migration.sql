-- Passkeys (issue 27, slice 5): a second way for a person to sign in (docs/decisions.md,
-- "Passkeys"). A row per WebAuthn credential of an account: its id as the browser gives it
-- (base64url, unique across every account), the COSE public key the signatures are checked with,
-- the signature counter and the transports the authenticator named. `webauthn_challenges` holds
-- each challenge the API handed out, for 5 minutes and a single use: a registration's is bound to
-- the account, a sign-in's to nobody (discoverable credentials: the passkey names the account).

-- CreateTable
CREATE TABLE "passkeys" (
    "id" BIGSERIAL NOT NULL,
    "account_id" BIGINT NOT NULL,
    "credential_id" VARCHAR(1024) NOT NULL,
    "public_key" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "name" VARCHAR(100) NOT NULL,
    "backed_up" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "passkeys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "passkeys_counter_check" CHECK ("counter" >= 0)
);

-- CreateIndex
CREATE UNIQUE INDEX "passkeys_credential_id_key" ON "passkeys"("credential_id");

-- CreateIndex
CREATE INDEX "passkeys_account_id_idx" ON "passkeys"("account_id");

-- AddForeignKey
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "webauthn_challenges" (
    "id" BIGSERIAL NOT NULL,
    "challenge" VARCHAR(128) NOT NULL,
    "purpose" VARCHAR(16) NOT NULL,
    "account_id" BIGINT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "webauthn_challenges_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'authenticate')),
    CONSTRAINT "webauthn_challenges_account_check" CHECK (("purpose" = 'register') = ("account_id" IS NOT NULL))
);

-- CreateIndex
CREATE UNIQUE INDEX "webauthn_challenges_challenge_key" ON "webauthn_challenges"("challenge");

-- CreateIndex
CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges"("expires_at");

-- AddForeignKey
ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "webauthn_challenges_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
