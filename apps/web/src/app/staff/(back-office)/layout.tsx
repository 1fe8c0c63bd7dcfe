import { LogOut } from 'lucide-react';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { requireStaff } from '@/lib/session';
import { signOut, signOutEverywhere } from '../sign-in/actions';
import { StaffNav } from './staff-nav';

export const metadata: Metadata = { robots: { index: false } };

/**
 * Every back-office page: only with a staff session (each page checks again, since a layout is
 * not re-run on every navigation). A band says this is the back office; sign out is a real form.
 */
const BackOfficeLayout = async ({ children }: { children: ReactNode }) => {
  const member = await requireStaff();
  return (
    <div className="staff">
      <div className="staff-band">
        <p className="staff-band__label">Staff area</p>
        <StaffNav isAdmin={member.role === 'admin'} />
        <div className="staff-band__who">
          <span>
            Signed in as <strong>{member.name}</strong>
          </span>
          <form action={signOut}>
            <button type="submit" className="button button--small button--secondary">
              <LogOut aria-hidden="true" focusable="false" className="button__icon" />
              Sign out
            </button>
          </form>
        </div>
      </div>
      {children}
      {/* Below the page, so the band keeps its size on a phone. */}
      <form action={signOutEverywhere} className="staff-everywhere">
        <p className="field__hint">Signed in on another device too, or left a session open?</p>
        <button type="submit" className="button button--small button--secondary">
          Sign out everywhere
        </button>
      </form>
    </div>
  );
};

export default BackOfficeLayout;
