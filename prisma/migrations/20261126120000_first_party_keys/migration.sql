-- Issue 22: the first-party capability of a key (the store's own site). Only such a key may vouch
-- for a visitor's address (Pets-Visitor-IP), so that the site's visitors are told apart by the
-- failed-authentication budget and the site key's rate limits (docs/decisions.md, "The site as a
-- first-party client"). Every existing key is a third party's, as keys were until now.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "first_party" BOOLEAN NOT NULL DEFAULT false;
