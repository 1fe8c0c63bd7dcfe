import type { Metadata } from 'next';
import Link from 'next/link';
import { PageIntro } from '@/components/page-intro';
import { confirmSearchAlert } from '../../actions';
import { LinkButtonForm } from '../../link-button-form';

export const metadata: Metadata = {
  title: 'Confirm your alerts',
  robots: { index: false },
  // The token is in the path: no other site may see it in a Referer (not `no-referrer`: the
  // page's form would then post `Origin: null` without script, which the edge refuses).
  referrer: 'same-origin',
};

type TProps = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The link of a saved search's confirmation email. Opening it confirms nothing: the button posts
 * the token (as the developer verify page does), so a mail scanner that opens every link cannot
 * sign someone up for alerts.
 */
const ConfirmSearchPage = async ({ params, searchParams }: TProps) => {
  const { token } = await params;
  const isConfirmed = (await searchParams).confirmed === '1';
  if (isConfirmed) {
    return (
      <div className="narrow">
        <PageIntro title="Your alerts are on">
          We will email you when a new animal matches your search, at most once a day. Every email
          has a link to stop them.
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
      <PageIntro title="Confirm your alerts">
        One more step: confirm that you want an email when a new animal matches your search.
      </PageIntro>
      <LinkButtonForm
        action={confirmSearchAlert}
        token={token.slice(0, 64)}
        label="Confirm my alerts"
        pendingLabel="Confirming…"
      />
    </div>
  );
};

export default ConfirmSearchPage;
