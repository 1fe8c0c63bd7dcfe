import type { Metadata } from 'next';
import { PageIntro } from '@/components/page-intro';
import { VerifyForm } from './verify-form';

export const metadata: Metadata = {
  title: 'Confirm your email address',
  robots: { index: false },
  // The token is in the path: no other site may see it in a Referer. Not `no-referrer`: with it,
  // the browser sends `Origin: null` with the page's form when script is off, which the edge
  // refuses as a form from another site.
  referrer: 'same-origin',
};

type TProps = { params: Promise<{ token: string }> };

/**
 * A verify link from the sign-up email. Opening it verifies nothing: the button posts the token,
 * so a mail scanner that opens every link cannot confirm an address for someone else.
 */
const VerifyPage = async ({ params }: TProps) => {
  const { token } = await params;
  return (
    <div className="narrow">
      <PageIntro title="Confirm your email address">
        One more step: confirm that this address is yours, and your organisation can create its
        keys.
      </PageIntro>
      <VerifyForm token={token.slice(0, 200)} />
    </div>
  );
};

export default VerifyPage;
