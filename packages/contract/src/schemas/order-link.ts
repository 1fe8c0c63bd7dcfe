import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ZEmailAddress } from './common';
import { ZAdopter } from './order';

/**
 * Private links to an application: the status link in every email to its adopter, so nobody has
 * to keep a reference. A token is signed by the API (its key is in the database) and names the
 * order and when it stops working; holding it is what lets its holder read that one order, as an
 * emailed receipt link does. Nothing is stored per token, so a link cannot be revoked, only left
 * to expire; a fresh set costs one email (`sendOrderLinks`).
 */

/** The site's page a link opens: where the adopter's emails point. */
export const orderStatusPagePath = (token: string): string => `/applications/status/${token}`;

/** How long a link works after the email carrying it was written. */
export const ORDER_LINK_DAYS = 30;

/** Link emails one address receives per hour, at most; more requests are accepted and dropped. */
export const ORDER_LINK_EMAILS_PER_HOUR = 3;

/** Applications one link email lists at most (newest first). */
export const ORDER_LINKS_PER_EMAIL = 20;

/** `<order id>.<expiry, unix seconds in base 36>.<signature, 22 base64url characters>`. */
export const ORDER_LINK_TOKEN_PATTERN = /^[1-9][0-9]{0,15}\.[0-9a-z]{1,10}\.[A-Za-z0-9_-]{22}$/;
export const ORDER_LINK_TOKEN_MAX_LENGTH = 50;

/**
 * A link's token, sent in a body rather than a path: it is a credential, and a path ends up in
 * access logs (the way OAuth's token introspection, RFC 7662, takes its token).
 */
export const ZOrderLinkLookup = extendApi(
  z
    .object({
      token: z
        .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
        .max(
          ORDER_LINK_TOKEN_MAX_LENGTH,
          `must be at most ${ORDER_LINK_TOKEN_MAX_LENGTH} characters`,
        )
        .regex(ORDER_LINK_TOKEN_PATTERN, 'must be a link token from an email')
        .describe(
          'The token of a private link: the last part of the status page address an email to the adopter carries.',
        ),
    })
    .strict(),
  { title: 'OrderLinkLookup', example: { token: '7.tn6j3c.Hk3v0c5bX1qW9eRrT2yU4i' } },
);
export type TOrderLinkLookup = z.infer<typeof ZOrderLinkLookup>;

export const ZOrderLinksRequest = extendApi(z.object({ email: ZAdopter.shape.email }).strict(), {
  title: 'OrderLinksRequest',
  example: { email: 'ada@example.org' },
});
export type TOrderLinksRequest = z.infer<typeof ZOrderLinksRequest>;

export const ZOrderLinksAccepted = extendApi(
  z.object({
    email: ZEmailAddress.describe(
      'The address the links go to, if it has applications, as it was sent.',
    ),
    expiresInDays: extendApi(z.number().int().min(1).max(365), {
      format: 'int32',
      description: 'How many days each link works after the email is written.',
    }),
  }),
  {
    title: 'OrderLinksAccepted',
    example: { email: 'ada@example.org', expiresInDays: ORDER_LINK_DAYS },
  },
);
export type TOrderLinksAccepted = z.infer<typeof ZOrderLinksAccepted>;
