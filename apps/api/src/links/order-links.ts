import { createHmac, timingSafeEqual } from 'node:crypto';
import { ORDER_LINK_DAYS, ORDER_LINK_TOKEN_PATTERN } from '@pets/contract';
import type { Pool } from 'pg';
import { lazySigningKey } from './lazy-signing-key';

/**
 * The private links to an application in its adopter's emails: a token naming the order and when
 * it stops working, signed with HMAC-SHA256 under the database's `order-links` key (the contract's
 * ORDER_LINK_TOKEN_PATTERN: `<order id>.<expiry, unix seconds, base 36>.<first 128 bits of the
 * MAC, base64url>`). Nothing is stored per link; the signature is compared in constant time.
 */

const KEY_NAME = 'order-links';
const DAY_SECONDS = 86_400;
/** The MAC covers the purpose too, so a token signed for anything else never passes here. */
const PURPOSE = 'order-status';
const MAC_BYTES = 16;

const macOf = (key: Buffer, orderId: string, expires: string): Buffer =>
  createHmac('sha256', key)
    .update(`${PURPOSE}.${orderId}.${expires}`)
    .digest()
    .subarray(0, MAC_BYTES);

/** A token for `orderId` that works until `nowMs` plus ORDER_LINK_DAYS. */
export const signOrderLink = (key: Buffer, orderId: number, nowMs: number): string => {
  const expires = (Math.floor(nowMs / 1000) + ORDER_LINK_DAYS * DAY_SECONDS).toString(36);
  return `${orderId}.${expires}.${macOf(key, String(orderId), expires).toString('base64url')}`;
};

/** The order a token names, or undefined when it is malformed, forged or expired at `nowMs`. */
export const verifyOrderLink = (key: Buffer, token: string, nowMs: number): number | undefined => {
  if (!ORDER_LINK_TOKEN_PATTERN.test(token)) {
    return undefined;
  }
  const [orderId = '', expires = '', mac = ''] = token.split('.');
  // Compared as text: decoding would ignore the last character's spare bits, so several spellings
  // of one MAC would pass.
  const given = Buffer.from(mac, 'ascii');
  const expected = Buffer.from(macOf(key, orderId, expires).toString('base64url'), 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return undefined;
  }
  if (Number.parseInt(expires, 36) * 1000 <= nowMs) {
    return undefined;
  }
  const id = Number(orderId);
  return Number.isSafeInteger(id) ? id : undefined;
};

/**
 * The signer and checker of order links, on the database's key: read (or made) on first use and
 * kept, so an API that starts while the database is down still starts; a failed read is retried
 * by the next use.
 */
export class OrderLinks {
  private readonly secret: () => Promise<Buffer>;

  constructor(pool: Pool) {
    this.secret = lazySigningKey(pool, KEY_NAME);
  }

  /** A signing function for the emails being written now (one key read for all of them). */
  async signer(): Promise<(orderId: number) => string> {
    const key = await this.secret();
    const now = Date.now();
    return (orderId) => signOrderLink(key, orderId, now);
  }

  async verify(token: string): Promise<number | undefined> {
    return verifyOrderLink(await this.secret(), token, Date.now());
  }
}
