import { prepare, sql, type TQueryable } from '@pets/db';
import type { Pool } from 'pg';

/**
 * What the outbox queues its messages on: the API's job queue (pg-boss), on the same transaction;
 * one job per message, all of a transaction's in one statement.
 */
export type TMailQueue = {
  send: (
    client: TQueryable,
    queue: 'mail.send',
    jobs: readonly { mailId: string }[],
  ) => Promise<void>;
};

/** A message to send: which template, to whom, its input, and the application it is about. */
export type TMailRequest = {
  template: string;
  to: string;
  orderId?: number;
  data: unknown;
};

/**
 * The mail_messages table, the outbox of email. `enqueue` runs on the transaction of the change a
 * message reports: the row and its `mail.send` job commit with that change or not at all. The
 * worker then claims the row (an autocommitted UPDATE, no transaction held while the mail server
 * answers: on the embedded database a transaction would stop every other client), sends it, and
 * records `sent_at`. A row already sent is never sent again; the only window for a second copy is
 * a crash between the server's acceptance and that UPDATE, and the copy carries the same
 * Message-ID (the API's mail worker), which mail systems use to drop duplicates.
 */

/**
 * Every message of a transaction in one statement: a change that mails three people costs the
 * request one round trip, not three. `messages` is a JSON array of the rows.
 */
const INSERT_STATEMENT = prepare((db, p: { messages: string }) =>
  db
    .insertInto('mail_messages')
    .columns(['template', 'recipient', 'data', 'order_id'])
    .expression(
      db
        .selectFrom(
          sql<{
            template: string;
            recipient: string;
            data: unknown;
            order_id: string | null;
          }>`jsonb_to_recordset(${p.messages}::jsonb)`.as<'m'>(
            sql`m(template text, recipient text, data jsonb, order_id bigint)`,
          ),
        )
        .select(['m.template', 'm.recipient', 'm.data', 'm.order_id']),
    )
    .returning(['id']),
);

/** Counts the attempt and returns the row, unless it was sent already (or does not exist). */
const CLAIM_STATEMENT = prepare((db, p: { id: string }) =>
  db
    .updateTable('mail_messages')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', p.id)
    .where('sent_at', 'is', null)
    .returning(['id', 'template', 'recipient', 'data', 'created_at as createdAt', 'attempts']),
);

const SENT_STATEMENT = prepare((db, p: { id: string; now: Date }) =>
  db
    .updateTable('mail_messages')
    .set({ sent_at: p.now, last_error: null })
    .where('id', '=', p.id)
    .where('sent_at', 'is', null),
);

/**
 * The address's messages of a template since a moment, by
 * `mail_messages_recipient_template_created_at_idx`, after taking a lock on the address for the
 * rest of the transaction: two requests at once count one after the other.
 */
const LOCK_RECIPIENT_STATEMENT = prepare((db, p: { recipient: string }) =>
  db.selectNoFrom(
    sql<string>`pg_advisory_xact_lock(hashtextextended(${p.recipient}, 25))::text`.as('locked'),
  ),
);

const RECENT_COUNT_STATEMENT = prepare(
  (db, p: { recipient: string; template: string; since: Date }) =>
    db
      .selectFrom('mail_messages')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('recipient', '=', p.recipient)
      .where('template', '=', p.template)
      .where('created_at', '>', p.since),
);

/** The newest message of a template to an address, by the same index. */
const LATEST_STATEMENT = prepare((db, p: { recipient: string; template: string }) =>
  db
    .selectFrom('mail_messages')
    .select(['data', 'created_at as createdAt'])
    .where('recipient', '=', p.recipient)
    .where('template', '=', p.template)
    .orderBy('created_at', 'desc')
    .limit(1),
);

const FAILED_STATEMENT = prepare((db, p: { id: string; error: string }) =>
  db.updateTable('mail_messages').set({ last_error: p.error }).where('id', '=', p.id),
);

export type TClaimedMail = {
  id: string;
  template: string;
  recipient: string;
  data: unknown;
  createdAt: Date;
  attempts: number;
};

export class MailRepository {
  constructor(
    private readonly pool: Pool,
    private readonly queue: TMailQueue,
  ) {}

  /** On `client`'s transaction: the messages and the jobs that will send them, one each. */
  async enqueue(client: TQueryable, ...mails: readonly TMailRequest[]): Promise<void> {
    if (mails.length === 0) {
      return;
    }
    const { rows } = await INSERT_STATEMENT.execute(client, {
      messages: JSON.stringify(
        mails.map((mail) => ({
          template: mail.template,
          recipient: mail.to,
          data: mail.data,
          order_id: mail.orderId ?? null,
        })),
      ),
    });
    if (rows.length !== mails.length) {
      throw new Error(`mail_messages: ${mails.length} inserted, ${rows.length} returned`);
    }
    // The jobs are alike but for the id they name, so the rows' order does not matter.
    await this.queue.send(
      client,
      'mail.send',
      rows.map((row) => ({ mailId: String(row.id) })),
    );
  }

  /**
   * On `client`'s transaction: queues `mail` unless its recipient had `perHour` messages of its
   * template in the last hour (counted under a lock on the address); answers whether it was
   * queued.
   */
  async enqueueWithinHourlyLimit(
    client: TQueryable,
    mail: TMailRequest,
    perHour: number,
    now: Date = new Date(),
  ): Promise<boolean> {
    await this.lockRecipient(client, mail.to);
    const { rows } = await RECENT_COUNT_STATEMENT.execute(client, {
      recipient: mail.to,
      template: mail.template,
      since: new Date(now.getTime() - 3_600_000),
    });
    if (Number(rows[0]?.total ?? 0) >= perHour) {
      return false;
    }
    await this.enqueue(client, mail);
    return true;
  }

  /**
   * Takes a lock on the address for the rest of `client`'s transaction: whatever decides what to
   * send it from what it was sent already runs one at a time.
   */
  async lockRecipient(client: TQueryable, recipient: string): Promise<void> {
    await LOCK_RECIPIENT_STATEMENT.execute(client, { recipient });
  }

  /** The input of the newest message of `template` to `recipient`, on `client`; undefined: none. */
  async latestData(client: TQueryable, recipient: string, template: string): Promise<unknown> {
    const { rows } = await LATEST_STATEMENT.execute(client, { recipient, template });
    return rows[0]?.data;
  }

  async claim(id: string): Promise<TClaimedMail | undefined> {
    const { rows } = await CLAIM_STATEMENT.execute(this.pool, { id });
    const row = rows[0];
    return row ? { ...row, id: String(row.id) } : undefined;
  }

  async markSent(id: string): Promise<void> {
    await SENT_STATEMENT.execute(this.pool, { id, now: new Date() });
  }

  async markFailed(id: string, error: string): Promise<void> {
    await FAILED_STATEMENT.execute(this.pool, { id, error: error.slice(0, 500) });
  }
}
