import { ORDER_LINK_TOKEN_PATTERN, orderStatusPagePath } from '@pets/contract/schemas';
import { MailCheck } from 'lucide-react';
import type { Metadata } from 'next';
import { ApiFailure } from '@/components/api-failure';
import { ApplicationCard } from '@/components/application-card';
import { ApplicationLinksForm } from '@/components/application-links-form';
import { FormError } from '@/components/form/form-error';
import { PageIntro } from '@/components/page-intro';
import { storeConfig } from '@/env';
import { findPet } from '@/lib/api';
import { toApplicationView } from '@/lib/application-view';
import { getOrderByLink } from '@/lib/orders-api';
import { confirmApplication, sendApplicationLinks } from '../actions';
import { WithdrawApplication } from './withdraw-application';

/**
 * The private link is the only key to this page: never indexed, and never sent on as a referrer
 * when the adopter follows a link out of it. Not `no-referrer`: with it, the browser sends
 * `Origin: null` with the page's forms when script is off, which the edge refuses as a form from
 * another site; `same-origin` sends the address only back to this site.
 */
export const metadata: Metadata = {
  title: 'Your application',
  robots: { index: false, follow: false },
  referrer: 'same-origin',
};

type TProps = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * An application opened from the private link in an email to its adopter: no reference or email to
 * type. A link that is not valid or has expired gets one answer, and the form for fresh links.
 */
const ApplicationByLinkPage = async ({ params, searchParams }: TProps) => {
  const { token } = await params;
  const { confirm, withdraw, withdrawn } = await searchParams;
  const order = ORDER_LINK_TOKEN_PATTERN.test(token) ? await getOrderByLink(token) : undefined;
  if (
    order &&
    !order.ok &&
    order.failure.kind !== 'not-found' &&
    order.failure.kind !== 'invalid'
  ) {
    return (
      <ApiFailure failure={order.failure} retryHref={orderStatusPagePath(token)} headingLevel={1} />
    );
  }
  if (!order?.ok) {
    return (
      <div className="narrow">
        <PageIntro title="This link no longer works">
          The links in our emails work for a limited time, and this one has expired or was not
          copied whole. Enter the email address you applied with, and we will send you fresh links
          to your applications.
        </PageIntro>
        <ApplicationLinksForm action={sendApplicationLinks} />
      </div>
    );
  }
  const pet = await findPet(order.data.petId);
  const application = toApplicationView(
    order.data,
    pet.ok ? pet.data.name : undefined,
    storeConfig(),
  );
  if (order.data.status === 'unconfirmed') {
    return (
      <div className="narrow">
        <PageIntro title="Confirm your application">
          One more step, {order.data.adopter.name}: confirm your application to send it to the
          store.
        </PageIntro>
        {confirm === 'failed' ? (
          <FormError>
            We could not confirm your application just now. Please try again in a minute.
          </FormError>
        ) : null}
        <form action={confirmApplication} className="panel confirm-application">
          <input type="hidden" name="token" value={token} />
          <p className="lead">{application.summary}</p>
          <div className="form__actions">
            <button type="submit" className="button">
              <MailCheck aria-hidden="true" focusable="false" />
              Confirm my application
            </button>
          </div>
        </form>
        <ApplicationCard application={application} />
      </div>
    );
  }
  return (
    <div className="narrow">
      <PageIntro title="Your application">
        Where your application stands, {order.data.adopter.name}. Keep the email with this link: it
        opens this page whenever you need it.
      </PageIntro>
      {withdrawn && application.isWithdrawn ? (
        <p className="notice" role="status">
          Your application is withdrawn. The store has been told, and we have emailed you to confirm
          it.
        </p>
      ) : null}
      <ApplicationCard application={application} />
      {application.isWithdrawable ? (
        <WithdrawApplication
          token={token}
          petName={application.petName ?? 'this animal'}
          isApproved={application.status === 'approved'}
          isConfirming={withdraw === 'confirm'}
          hasFailed={withdraw === 'failed'}
        />
      ) : null}
    </div>
  );
};

export default ApplicationByLinkPage;
