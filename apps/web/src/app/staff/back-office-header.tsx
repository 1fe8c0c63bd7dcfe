'use client';

import { LogOut, PawPrint } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { StaffNav } from './(back-office)/staff-nav';
import { signOut } from './sign-in/actions';

/** The doors of the back office: its pages for people who are not signed in. */
const DOORS = ['/staff/sign-in', '/staff/reset', '/staff/invite'];

const isDoor = (pathname: string) =>
  DOORS.some((door) => pathname === door || pathname.startsWith(`${door}/`));

type TProps = {
  storeName: string;
  /** The signed-in staff member, when there is one. */
  member: { name: string; isAdmin: boolean } | undefined;
};

/**
 * The back office's header: visibly not the public site (a dark band, "Back office" beside the
 * store's name). Signed in: the sections, the person's name and "Sign out". At the doors (sign in,
 * a reset or an invitation link) only the way back to the public site: the header is drawn once
 * for every /staff page, so what it offers follows the address, not only the session.
 */
export const BackOfficeHeader = ({ storeName, member }: TProps) => {
  const pathname = usePathname();
  const signedIn = member && !isDoor(pathname) ? member : undefined;
  return (
    <header className="back-office-header">
      <div className="back-office-header__inner">
        <div className="back-office-header__bar">
          <Link
            href={signedIn ? '/staff/applications' : '/staff/sign-in'}
            className="back-office-header__brand"
          >
            <PawPrint
              aria-hidden="true"
              focusable="false"
              className="brand__icon"
              strokeWidth={2}
            />
            {storeName}
            <span className="back-office-header__label">Back office</span>
          </Link>
          {signedIn ? (
            <div className="back-office-header__who">
              <span>
                Signed in as <strong>{signedIn.name}</strong>
              </span>
              <form action={signOut}>
                <button type="submit" className="button button--small back-office-header__sign-out">
                  <LogOut aria-hidden="true" focusable="false" className="button__icon" />
                  Sign out
                </button>
              </form>
            </div>
          ) : (
            <Link href="/" className="back-office-header__public">
              Back to the public site
            </Link>
          )}
        </div>
        {signedIn ? <StaffNav isAdmin={signedIn.isAdmin} /> : null}
      </div>
    </header>
  );
};
