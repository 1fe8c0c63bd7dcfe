import { createHash, createHmac } from 'node:crypto';
import type { Pool } from 'pg';
import { lazySigningKey } from './lazy-signing-key';

/**
 * The two links of a saved search's emails (issue 28): confirm (in the confirmation email) and
 * unsubscribe (in every alert, and its List-Unsubscribe header). Each token is the HMAC-SHA256 of
 * the purpose and the search's id under the database's `saved-search-links` key, base64url (43
 * characters): the mail worker makes it again when it writes each email, so no token is kept in
 * `mail_messages`, and `saved_searches` keeps only its SHA-256, which a link is looked up by. An
 * unsubscribe link works for as long as the search exists (RFC 8058: old emails too); the confirm
 * link only while the search is young (SAVED_SEARCH_CONFIRM_DAYS, checked by the repository).
 */

export type TSavedSearchLinkPurpose = 'confirm' | 'unsubscribe';

const KEY_NAME = 'saved-search-links';

export const savedSearchToken = (
  key: Buffer,
  purpose: TSavedSearchLinkPurpose,
  searchId: string,
): string =>
  createHmac('sha256', key).update(`saved-search.${purpose}.${searchId}`).digest('base64url');

/** What `saved_searches` keeps of a token: its SHA-256, hex. */
export const tokenHashOf = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** The signer of saved searches' links, on the database's key (read on first use and kept). */
export class SavedSearchLinks {
  private readonly secret: () => Promise<Buffer>;

  constructor(pool: Pool) {
    this.secret = lazySigningKey(pool, KEY_NAME);
  }

  async signer(): Promise<(purpose: TSavedSearchLinkPurpose, searchId: string) => string> {
    const key = await this.secret();
    return (purpose, searchId) => savedSearchToken(key, purpose, searchId);
  }
}
