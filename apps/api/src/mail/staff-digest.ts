import type { MailRepository } from '@pets/store/mail.repository';
import { applicationsPlacedBetween } from '@pets/store/orders.repository';
import { withTransaction } from '@pets/store/transaction';
import type { Pool } from 'pg';
import { z } from 'zod';
import { DIGEST_TEMPLATE } from './mail-templates';

/**
 * The staff's daily digest (STAFF_DIGEST=daily): one email to the store listing the applications
 * placed since the last digest ended. Each digest records the end of its window in its outbox row,
 * so the next one starts there: a digest retried after it was written finds nothing new, and one
 * that found nothing writes nothing and leaves the window open for the next.
 */

/** Every day at `hour`, minute 0 (on the store's clock: the schedule's time zone). */
export const digestCron = (hour: number): string => `0 ${hour} * * *`;

/**
 * The window ends this long before now: an application's `placed_at` is its transaction's start,
 * and one still committing then is listed by the next digest rather than missed.
 */
const SETTLE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Applications one digest lists at most; the rest start the next one's window. */
const DIGEST_MAX = 200;

const ZDigestWindow = z.object({ until: z.string().datetime() });

/** Queues the digest due at `now` (nothing when no application arrived); answers how many it lists. */
export const queueStaffDigest = (
  pool: Pool,
  outbox: MailRepository,
  staffEmail: string,
  now: number = Date.now(),
): Promise<number> =>
  withTransaction(pool, async (client) => {
    await outbox.lockRecipient(client, staffEmail);
    const last = ZDigestWindow.safeParse(
      await outbox.latestData(client, staffEmail, DIGEST_TEMPLATE),
    );
    const until = new Date(now - SETTLE_MS);
    const since = last.success ? new Date(last.data.until) : new Date(until.getTime() - DAY_MS);
    if (since >= until) {
      return 0;
    }
    const applications = await applicationsPlacedBetween(client, since, until, DIGEST_MAX);
    if (applications.length === 0) {
      return 0;
    }
    const end =
      applications.length === DIGEST_MAX
        ? (applications.at(-1)?.placedAt ?? until.toISOString())
        : until.toISOString();
    await outbox.enqueue(client, {
      template: DIGEST_TEMPLATE,
      to: staffEmail,
      data: { since: since.toISOString(), until: end, applications },
    });
    return applications.length;
  });
