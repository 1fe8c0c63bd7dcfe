import type { TDevMailboxEntry } from '@pets/contract/schemas';
import { LockKeyhole } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { StatePanel } from '@/components/state-panel';
import { StoreTime } from '@/components/store-time';
import { webConfig } from '@/env';
import { isReadableBy, MAIL_READER_WORDS, readDevMail } from '@/lib/dev-mailbox';
import { requireAdmin } from '@/lib/session';

export const metadata: Metadata = { title: 'Message' };

type TProps = { params: Promise<{ id: string }> };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * One message of the dev mailbox: its envelope, its HTML as sent (sandboxed) and its plain text; for
 * a message that carries a credential and is not the admin's own, the envelope only.
 */
const MessagePage = async ({ params }: TProps) => {
  await connection();
  const admin = await requireAdmin();
  const { id } = await params;
  const { mailDir } = webConfig();
  const message = mailDir ? await readDevMail(mailDir, id) : undefined;
  if (!message) {
    notFound();
  }
  return (
    <>
      <p>
        <Link href="/staff/mail">All mail</Link>
      </p>
      <div className="page-intro">
        <h1 className="page-title">{message.subject}</h1>
        <dl className="facts">
          <div className="facts__row">
            <dt>From</dt>
            <dd>{message.from}</dd>
          </div>
          <div className="facts__row">
            <dt>To</dt>
            <dd>{message.to}</dd>
          </div>
          {message.reader ? (
            <div className="facts__row">
              <dt>For</dt>
              <dd>{capitalised(MAIL_READER_WORDS[message.reader].reader)}</dd>
            </div>
          ) : null}
          <div className="facts__row">
            <dt>Sent</dt>
            <dd>
              <StoreTime at={message.date} />
            </dd>
          </div>
        </dl>
      </div>
      {isReadableBy(message, admin.email) ? (
        <MessageBody message={message} />
      ) : (
        <StatePanel icon={LockKeyhole} title="Only its recipient reads this message">
          <p>
            It carries a link that sets a password or confirms an address, for {message.to} alone,
            so the back office shows it to no one else. Its recipient reads it in their own mailbox;
            on the machine that runs the store, <code>pnpm mail</code> lists it.
          </p>
        </StatePanel>
      )}
    </>
  );
};

/** What a message says: its HTML as its reader sees it, and its plain text. */
const MessageBody = ({ message }: { message: TDevMailboxEntry }) => (
  <>
    <h2>{message.reader ? MAIL_READER_WORDS[message.reader].sees : 'As it was sent'}</h2>
    {/*
        The message's HTML in a frame that may do nothing (sandbox without exceptions: no script, no
        form, no navigation), under this page's policy too: its inline styles apply, nothing loads.
      */}
    <iframe
      title={`The message "${message.subject}"`}
      srcDoc={message.html}
      sandbox=""
      className="mail-frame"
    />
    <h2>Plain text</h2>
    <pre className="mail-text">{message.text}</pre>
  </>
);

export default MessagePage;
