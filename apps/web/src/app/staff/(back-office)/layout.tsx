import type { ReactNode } from 'react';
import { requireStaff } from '@/lib/session';
import { signOutEverywhere } from '../sign-in/actions';

/**
 * Every back-office page: only with a staff session (each page checks again, since a layout is
 * not re-run on every navigation). The header is the /staff layout's; "Sign out everywhere" sits
 * below the page, so the header keeps its size on a phone.
 */
const BackOfficeLayout = async ({ children }: { children: ReactNode }) => {
  await requireStaff();
  return (
    <>
      {children}
      <form action={signOutEverywhere} className="staff-everywhere">
        <p className="field__hint">Signed in on another device too, or left a session open?</p>
        <button type="submit" className="button button--small button--secondary">
          Sign out everywhere
        </button>
      </form>
    </>
  );
};

export default BackOfficeLayout;
