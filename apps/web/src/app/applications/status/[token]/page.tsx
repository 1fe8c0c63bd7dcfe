import { ORDER_LINK_TOKEN_PATTERN, orderStatusPagePath } from '@pets/contract/schemas';
import type { Metadata } from 'next';
import { ApiFailure } from '@/components/api-failure';
import { ApplicationCard } from '@/components/application-card';
import { ApplicationLinksForm } from '@/components/application-links-form';
import { PageIntro } from '@/components/page-intro';
import { storeConfig } from '@/env';
import { findPet } from '@/lib/api';
import { toApplicationView } from '@/lib/application-view';
import { getOrderByLink } from '@/lib/orders-api';
import { sendApplicationLinks } from '../actions';

/**
 * The private link is the only key to this page: never indexed, and never sent on as a referrer
 * when the adopter follows a link out of it.
 */
export const metadata: Metadata = {
  title: 'Your application',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

type TProps = { params: Promise<{ token: string }> };

/**
 * An application opened from the private link in an email to its adopter: no reference or email to
 * type. A link that is not valid or has expired gets one answer, and the form for fresh links.
 */
const ApplicationByLinkPage = async ({ params }: TProps) => {
  const { token } = await params;
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
  return (
    <div className="narrow">
      <PageIntro title="Your application">
        Where your application stands, {order.data.adopter.name}. Keep the email with this link: it
        opens this page whenever you need it.
      </PageIntro>
      <ApplicationCard application={application} />
    </div>
  );
};

export default ApplicationByLinkPage;
