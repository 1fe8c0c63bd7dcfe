import type { MailRepository } from '@pets/store/mail.repository';
import type { Logger } from 'pino';
import { QUEUES, type TJobQueue } from '../jobs/job-queue';
import { mailReaderOf } from './mail-readers';
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

/** `<mail-7.1795716778832@localhost>`: the outbox id and its creation time, the same on a retry. */
export const messageIdOf = (id: string, createdAt: Date, siteUrl: string): string =>
  `<mail-${id}.${createdAt.getTime()}@${new URL(siteUrl).hostname}>`;

/**
 * Sends the outbox's messages: claims the row (counting the attempt), renders it, hands it to the
 * transport and records it sent. A failure is written on the row in our words and thrown, so the
 * queue retries the job with back-off; a row already sent is skipped, so a job run twice sends once.
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
    await mail.markSent(mailId);
    logger.info({ mailId, template: claimed.template, attempt: claimed.attempts }, 'mail sent');
  });
};
