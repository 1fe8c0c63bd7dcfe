import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest();

/**
 * An address as a key that holds no address (a counter's, say): the SHA-256 of it trimmed and in
 * lower case, so every spelling the API takes for one address (it compares them so) counts once.
 */
export const emailKey = (email: string): string => digest(email).toString('hex');

/**
 * Whether a typed email is the one an application was made with: after trimming, regardless of
 * case (as people type addresses), in constant time (equal-length hashes), so response times say
 * nothing about how much of an address was right.
 */
export const isSameEmail = (typed: string, stored: string): boolean =>
  timingSafeEqual(digest(typed), digest(stored));
