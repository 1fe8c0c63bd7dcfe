import type { Metadata } from 'next';
import Link from 'next/link';
import { PageIntro } from '@/components/page-intro';
import { unsubscribeSearchAlert } from '../../actions';
import { LinkButtonForm } from '../../link-button-form';

export const metadata: Metadata = {
  title: 'Stop these emails',
  robots: { index: false },
  referrer: 'same-origin',
};

type TProps = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The "Stop these emails" link of an alert. Opening it only shows the button (a scanner that
 * follows links stops nothing); mail clients' one-click unsubscribe (RFC 8058) POSTs to
 * ./one-click instead, the address of the List-Unsubscribe header.
 */
const UnsubscribePage = async ({ params, searchParams }: TProps) => {
  const { token } = await params;
  if ((await searchParams).done === '1') {
    return (
      <div className="narrow">
        <PageIntro title="You will get no more of these emails">
          We stopped the alerts of this search. You can save a new search on any list of animals.
        </PageIntro>
        <p>
          <Link href="/" className="button">
            Meet the animals
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="narrow">
      <PageIntro title="Stop these emails">
        Press the button and we will stop emailing you about new animals for this search.
      </PageIntro>
      <LinkButtonForm
        action={unsubscribeSearchAlert}
        token={token.slice(0, 64)}
        label="Stop these emails"
        pendingLabel="Stopping…"
      />
    </div>
  );
};

export default UnsubscribePage;
