import type { MailRepository } from '@pets/store/mail.repository';
import type { Logger } from 'pino';
import { QUEUES, type TJobQueue } from '../jobs/job-queue';
import { mailCarriesCredential, mailReaderOf } from './mail-readers';
import {
  isMailTemplate,
  renderMail,
  type TMailContext,
  type TMailRequest,
  type TRenderedMail,
} from './mail-templates';
import type { TMailTransport } from './mail-transport';

export type TMailWorkerOptions = {
  queue: Pick<TJobQueue, 'work'>;
  mail: MailRepository;
  transport: TMailTransport;
  /**
   * What the messages about to be written describe: the store, the site, and the signer of their
   * private links (whose key is read from the database, so this may fail and be retried).
   */
  contextFor: () => Promise<TMailContext>;
  siteUrl: string;
  from: string;
  logger: Logger;
};

/**
 * How long a message the server has taken keeps trying to record itself sent while the database
 * does not answer, before the worker gives up (the job expires after 300 s, and is then retried,
 * sending it again): one try a second at most.
 */
const RECORD_FOR_MS = 240_000;
const RECORD_RETRY_MAX_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `<mail-7.1795716778832@localhost>`: the outbox id and its creation time, the same on a retry. */
export const messageIdOf = (id: string, createdAt: Date, siteUrl: string): string =>
  `<mail-${id}.${createdAt.getTime()}@${new URL(siteUrl).hostname}>`;

/**
 * Sends the outbox's messages: claims the row (counting the attempt), renders it, hands it to the
 * transport and records it sent. A failure is written on the row in our words and thrown, so the
 * queue retries the job with back-off; a row already sent is skipped, so a job run twice sends once.
 * A message the server took while the database stopped answering is logged at once, and recorded
 * as soon as the database is back rather than failed, which would send it again (its job stays
 * in hand meanwhile: another process's retry of it finds it recorded).
 */
export const startMailWorker = async ({
  queue,
  mail,
  transport,
  contextFor,
  siteUrl,
  from,
  logger,
}: TMailWorkerOptions): Promise<void> => {
  /** Records the message sent, trying again while the database does not answer. */
  const recordSent = async (mailId: string, template: string, attempt: number) => {
    const giveUpAt = Date.now() + RECORD_FOR_MS;
    let wait = 100;
    for (let tries = 1; ; tries += 1) {
      try {
        await mail.markSent(mailId);
        return;
      } catch (error) {
        const err = error instanceof Error ? error.message : String(error);
        if (tries === 1) {
          // The first copy's line: if this process ends before the record, a second copy may go.
          logger.warn(
            { event: 'mail_sent_not_recorded', mailId, template, attempt, err },
            'mail sent, but recording it failed: recording it again, not sending it again',
          );
        }
        if (Date.now() + wait > giveUpAt) {
          logger.error(
            { event: 'mail_sent_not_recorded', mailId, template, attempt, err, tries },
            'mail sent, but it could not be recorded: it will be sent again',
          );
          throw error;
        }
        await sleep(wait);
        wait = Math.min(wait * 2, RECORD_RETRY_MAX_MS);
      }
    }
  };
  await queue.work(QUEUES.mail, async ({ mailId }) => {
    const claimed = await mail.claim(mailId);
    if (!claimed) {
      return;
    }
    if (!isMailTemplate(claimed.template)) {
      // Written by a newer version of the API: not ours to guess at; kept for the operator.
      await mail.markFailed(mailId, `unknown template ${claimed.template}`);
      logger.error({ mailId, template: claimed.template }, 'mail not sent: unknown template');
      return;
    }
    let rendered: TRenderedMail;
    try {
      rendered = await renderMail(
        { template: claimed.template, data: claimed.data } as Pick<
          TMailRequest,
          'template' | 'data'
        >,
        await contextFor(),
      );
    } catch (error) {
      // A template that cannot be written (its data, a bug) or a signing key not readable yet:
      // recorded on the row for the operator, and retried like a refused send (a fix deployed
      // in the meantime sends it).
      await mail.markFailed(mailId, 'the message could not be written');
      logger.error(
        {
          mailId,
          template: claimed.template,
          attempt: claimed.attempts,
          err: error instanceof Error ? error.message : String(error),
        },
        'mail not written: retrying later',
      );
      throw error;
    }
    try {
      await transport.send({
        id: claimed.id,
        from,
        to: claimed.recipient,
        ...rendered,
        reader: mailReaderOf({ template: claimed.template, data: claimed.data } as Pick<
          TMailRequest,
          'template' | 'data'
        >),
        credential: mailCarriesCredential({ template: claimed.template } as Pick<
          TMailRequest,
          'template'
        >),
        messageId: messageIdOf(claimed.id, claimed.createdAt, siteUrl),
        date: new Date(),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'the message could not be sent';
      await mail.markFailed(mailId, reason);
      // The recipient is personal data: the id finds it for whoever may see it.
      logger.warn(
        { mailId, template: claimed.template, attempt: claimed.attempts, reason },
        'mail not sent yet: retrying later',
      );
      throw error;
    }
    await recordSent(mailId, claimed.template, claimed.attempts);
    logger.info({ mailId, template: claimed.template, attempt: claimed.attempts }, 'mail sent');
  });
};
