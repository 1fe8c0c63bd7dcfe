import type { Metadata } from 'next';
import { ApplicationLookup } from '@/components/application-lookup';
import { PageIntro } from '@/components/page-intro';
import { lookUpApplication } from './actions';

export const metadata: Metadata = { title: 'Follow your application' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Where adopters follow their application: it is shown only to someone who has both its reference
 * and the email it was made with. `?reference=` (from the confirmation) fills in the first.
 */
const StatusPage = async ({ searchParams }: TProps) => {
  const { reference } = await searchParams;
  const initialReference = (Array.isArray(reference) ? reference[0] : reference) ?? '';
  return (
    <div className="narrow">
      <PageIntro title="Follow your application">
        Enter your application&apos;s reference and the email address you applied with to see where
        it stands.
      </PageIntro>
      <ApplicationLookup
        initialReference={initialReference.slice(0, 40)}
        action={lookUpApplication}
      />
    </div>
  );
};

export default StatusPage;
