import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest();

/**
 * Whether a typed email is the one an application was made with: after trimming, regardless of
 * case (as people type addresses), in constant time (equal-length hashes), so response times say
 * nothing about how much of an address was right.
 */
export const isSameEmail = (typed: string, stored: string): boolean =>
  timingSafeEqual(digest(typed), digest(stored));
