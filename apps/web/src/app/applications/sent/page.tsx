import { ORDER_CONFIRMATION_HOURS } from '@pets/contract/schemas';
import { CircleCheck, MailCheck } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { Panel } from '@/components/panel';
import { StoreVisit } from '@/components/store-visit';
import { storeConfig } from '@/env';
import { formatReference } from '@/lib/application-reference';
import { sentApplication } from '@/lib/sent-application';

export const metadata: Metadata = { title: 'Application sent' };

/**
 * Where a sent application lands: its reference, what happens next and where to follow it. It
 * shows only the application this visitor's form has just placed (lib/sent-application.ts),
 * never what an address says; without one, the way to follow an application is the status page.
 */
const SentPage = async () => {
  await connection(); // rendered per request: it reads the visitor's confirmation cookie
  const sent = await sentApplication();
  if (!sent) {
    redirect('/applications/status');
  }
  const reference = formatReference(sent.orderId);
  const animal = sent.petName;
  const { replyDays } = storeConfig();
  if (sent.confirmBy) {
    return (
      <div className="narrow">
        <div className="page-intro">
          <p className="notice" role="status">
            <MailCheck aria-hidden="true" focusable="false" className="notice__icon" />
            One more step: check your email.
          </p>
          <h1 className="page-title">Confirm your application to adopt {animal}</h1>
          <p className="lead">
            We have sent an email to <strong>{sent.confirmBy}</strong>. Open the link in it and
            press &ldquo;Confirm my application&rdquo;: until then, the store does not see your
            application. If you do not confirm it within {ORDER_CONFIRMATION_HOURS} hours, it is
            cancelled.
          </p>
          <p className="lead">Your application&apos;s reference is</p>
          <p className="reference">{reference}</p>
        </div>
        <Panel id="next" title="No email?">
          <p>
            Look in your spam or junk folder. Still nothing after a few minutes?{' '}
            <Link href="/applications/status#links-title">Ask for your application links</Link> with
            the same address: the link in that email confirms it too.
          </p>
        </Panel>
        <StoreVisit heading="Visit or contact the store" />
      </div>
    );
  }
  return (
    <div className="narrow">
      <div className="page-intro">
        <p className="notice" role="status">
          <CircleCheck aria-hidden="true" focusable="false" className="notice__icon" />
          Your application has been sent.
        </p>
        <h1 className="page-title">Thank you for applying to adopt {animal}</h1>
        <p className="lead">Your application&apos;s reference is</p>
        <p className="reference">{reference}</p>
      </div>
      <Panel id="next" title="What happens next">
        <ol className="steps">
          <li className="steps__item">
            <span>
              The store reads your application and contacts you within {replyDays} working{' '}
              {replyDays === 1 ? 'day' : 'days'}, by email or by phone if you gave one.
            </span>
          </li>
          <li className="steps__item">
            <span>
              You come and meet {animal}. Bring your reference, {reference}.
            </span>
          </li>
          <li className="steps__item">
            <span>
              If it is a good match, the store approves the adoption and agrees the day with you.
            </span>
          </li>
        </ol>
        <p className="pet__actions">
          <Link
            href={`/applications/status?${new URLSearchParams({ reference })}`}
            className="button"
          >
            Follow your application
          </Link>
        </p>
        <p className="field__hint">
          You will need the reference and the email address you applied with.
        </p>
      </Panel>
      <StoreVisit heading="Visit or contact the store" />
    </div>
  );
};

export default SentPage;
