import { Mail } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { StatePanel } from '@/components/state-panel';
import { StoreTime } from '@/components/store-time';
import { webConfig } from '@/env';
import { isReadableBy, listDevMailbox, MAIL_READER_WORDS } from '@/lib/dev-mailbox';
import { requireAdmin } from '@/lib/session';

export const metadata: Metadata = { title: 'Mail' };

/**
 * The dev mailbox: every email the API would have sent, when it has no mail server (`pnpm start`).
 * Admins only (staff get a 404): it holds other people's messages. A message that carries a
 * credential (a reset, an invitation, a confirmation link) opens for its recipient only; the others
 * see its envelope (docs/decisions.md, "The dev mailbox is for admins").
 */
const MailPage = async () => {
  await connection();
  const admin = await requireAdmin();
  const { mailDir } = webConfig();
  if (!mailDir) {
    return (
      <StatePanel icon={Mail} title="Email goes out through the mail server" headingLevel={1}>
        <p>
          This site has no dev mailbox: the API sends every message through its mail server
          (SMTP_URL), so adopters receive them in their own inboxes.
        </p>
      </StatePanel>
    );
  }
  const messages = await listDevMailbox(mailDir);
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Mail</h1>
        <p className="lead">
          The dev mailbox: with no mail server configured, every email the store sends lands here
          instead, newest first. A message with a link that sets a password or confirms an address
          opens for its recipient only.
        </p>
      </div>
      {messages.length === 0 ? (
        <StatePanel icon={Mail} title="No email yet" role="status">
          <p>Messages to adopters and to staff appear here as applications come and go.</p>
        </StatePanel>
      ) : (
        <ol className="queue" aria-label="Messages">
          {messages.map((message) => (
            <li key={message.id} className="queue__item">
              <Link href={`/staff/mail/${message.id}`} className="queue__link">
                <span className="queue__title">{message.subject}</span>
                <span className="queue__meta">
                  {message.reader ? `For ${MAIL_READER_WORDS[message.reader].reader} · ` : ''}
                  To {message.to} · <StoreTime at={message.date} />
                  {isReadableBy(message, admin.email) ? '' : ' · For its recipient only'}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </>
  );
};

export default MailPage;
