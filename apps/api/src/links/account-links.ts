import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Pool } from 'pg';
import { lazySigningKey } from './lazy-signing-key';

/**
 * The links in account emails (verify an address, reset a password, accept an invitation) and the
 * device tokens of sign-in throttling (issue 27, §2.3 and §2.5 of the plan). Signed, not stored:
 * `<account id>.<expiry, unix seconds, base 36>.<first 128 bits of HMAC-SHA256, base64url>` under
 * the database's `account-links` key, like the order links (./order-links.ts). Each MAC covers
 * its purpose and a piece of the account's state, which makes the link single-use without a table:
 * - verify: the email address (verifying twice changes nothing);
 * - reset: `password_changed_at`, so any new password (this reset's included) ends older links;
 * - invite: `invited_at`, cleared when the invitation is accepted (or renewed by a new invite).
 * The mail worker signs at render time, so no token is ever in `mail_messages`.
 */

export type TAccountLinkPurpose = 'verify' | 'reset' | 'invite';

const KEY_NAME = 'account-links';
const MAC_BYTES = 16;
const TOKEN_PATTERN = /^([1-9][0-9]{0,17})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})$/;

/** How long each link works. */
export const ACCOUNT_LINK_SECONDS: Record<TAccountLinkPurpose, number> = {
  verify: 24 * 3600,
  reset: 3600,
  invite: 7 * 24 * 3600,
};

const macOf = (key: Buffer, message: string): string =>
  createHmac('sha256', key).update(message).digest().subarray(0, MAC_BYTES).toString('base64url');

const sameText = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, 'ascii');
  const b = Buffer.from(expected, 'ascii');
  return a.length === b.length && timingSafeEqual(a, b);
};

export const signAccountLink = (
  key: Buffer,
  purpose: TAccountLinkPurpose,
  accountId: string,
  binding: string,
  nowMs: number,
): string => {
  const expires = (Math.floor(nowMs / 1000) + ACCOUNT_LINK_SECONDS[purpose]).toString(36);
  return `${accountId}.${expires}.${macOf(key, `${purpose}.${accountId}.${expires}.${binding}`)}`;
};

/** The account a token names, before its MAC is checked (to read the state it is bound to). */
export const accountOfToken = (token: string): string | undefined => TOKEN_PATTERN.exec(token)?.[1];

/** Whether the token is this purpose's, for this account's state now, and not expired. */
export const verifyAccountLink = (
  key: Buffer,
  purpose: TAccountLinkPurpose,
  token: string,
  binding: string,
  nowMs: number,
): boolean => {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) {
    return false;
  }
  const [, accountId = '', expires = '', mac = ''] = match;
  const isAuthentic = sameText(mac, macOf(key, `${purpose}.${accountId}.${expires}.${binding}`));
  return isAuthentic && Number.parseInt(expires, 36) * 1000 > nowMs;
};

/** The signer and checker, on the database's key (read on first use and kept; see OrderLinks). */
export class AccountLinks {
  private readonly secret: () => Promise<Buffer>;

  constructor(pool: Pool) {
    this.secret = lazySigningKey(pool, KEY_NAME);
  }

  /** A signing function for the emails being written now. */
  async signer(): Promise<
    (purpose: TAccountLinkPurpose, accountId: string, binding: string) => string
  > {
    const key = await this.secret();
    const now = Date.now();
    return (purpose, accountId, binding) => signAccountLink(key, purpose, accountId, binding, now);
  }

  async verify(purpose: TAccountLinkPurpose, token: string, binding: string): Promise<boolean> {
    return verifyAccountLink(await this.secret(), purpose, token, binding, Date.now());
  }

  /** A new device token for the account: `<device id>.<MAC>` (the site's `pets_device` cookie). */
  async deviceToken(accountId: string): Promise<string> {
    const deviceId = randomBytes(12).toString('base64url');
    return `${deviceId}.${macOf(await this.secret(), `device.${accountId}.${deviceId}`)}`;
  }

  /** The device id of a token made for this account, or undefined. */
  async deviceOf(accountId: string, token: string | undefined): Promise<string | undefined> {
    const match = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22})$/.exec(token ?? '');
    if (!match) {
      return undefined;
    }
    const [, deviceId = '', mac = ''] = match;
    const expected = macOf(await this.secret(), `device.${accountId}.${deviceId}`);
    return sameText(mac, expected) ? deviceId : undefined;
  }
}
