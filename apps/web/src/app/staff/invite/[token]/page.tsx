import type { Metadata } from 'next';
import { AcceptInviteForm } from '@/components/account/password-forms';
import { PageIntro } from '@/components/page-intro';
import { acceptInvitation } from '../../reset/actions';

export const metadata: Metadata = {
  title: 'Join the team',
  robots: { index: false },
  // The token is in the path: no other site may see it in a Referer. Not `no-referrer`: with it,
  // the browser sends `Origin: null` with the page's form when script is off, which the edge
  // refuses as a form from another site.
  referrer: 'same-origin',
};

type TProps = { params: Promise<{ token: string }> };

/** An invitation from an email: the person's name and password, then sign in. */
const InvitePage = async ({ params }: TProps) => {
  const { token } = await params;
  return (
    <div className="narrow">
      <p className="staff-label">Staff area</p>
      <PageIntro title="Join the team">
        You were invited to the store's back office. Tell us your name and choose a password.
      </PageIntro>
      <AcceptInviteForm token={token.slice(0, 200)} action={acceptInvitation} />
    </div>
  );
};

export default InvitePage;
