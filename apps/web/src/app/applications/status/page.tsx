import type { Metadata } from 'next';
import { ApplicationLinksForm } from '@/components/application-links-form';
import { ApplicationLookup } from '@/components/application-lookup';
import { PageIntro } from '@/components/page-intro';
import { lookUpApplication, sendApplicationLinks } from './actions';

export const metadata: Metadata = { title: 'Follow your application' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Where adopters follow their application: every email the store sends them links to it with a
 * private link (./[token]); without one, it is shown to someone who has both its reference and the
 * email it was made with, and anyone may have the links emailed to the address they applied with.
 * `?reference=` (from the confirmation) fills in the reference.
 */
const StatusPage = async ({ searchParams }: TProps) => {
  const { reference } = await searchParams;
  const initialReference = (Array.isArray(reference) ? reference[0] : reference) ?? '';
  return (
    <div className="narrow">
      <PageIntro title="Follow your application">
        Every email we send about your application has a private link to it. No email to hand? Enter
        your application&apos;s reference and the email address you applied with.
      </PageIntro>
      <ApplicationLookup
        initialReference={initialReference.slice(0, 40)}
        action={lookUpApplication}
      />
      <section className="page-section" aria-labelledby="links-title">
        <h2 id="links-title" className="page-section__title">
          Lost your reference?
        </h2>
        <p>We can email you a private link to each application you made with your address.</p>
        <ApplicationLinksForm action={sendApplicationLinks} />
      </section>
    </div>
  );
};

export default StatusPage;
