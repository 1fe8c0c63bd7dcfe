-- The developer portal's "Try it in the API reference" key (issue 27): each press makes a test,
-- read-only key for an hour, and revokes the ones the earlier presses made, so pressing it again
-- and again never piles keys up. The mark tells those keys from any key a developer named
-- "API reference" themselves, which the button must leave alone.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "for_reference" BOOLEAN NOT NULL DEFAULT false;
