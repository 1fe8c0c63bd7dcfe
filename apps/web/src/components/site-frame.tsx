'use client';

import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';

/** The back office (`/staff`) has a layout of its own: app/staff/layout.tsx. */
const isBackOfficePath = (pathname: string): boolean =>
  pathname === '/staff' || pathname.startsWith('/staff/');

/**
 * The public site's header, page and footer around every page but the back office's, which has
 * its own header and none of the public site's doors. Decided in the browser too, since the root
 * layout is not drawn again when a visitor follows a link from the site into the back office.
 */
export const SiteFrame = ({
  header,
  footer,
  children,
}: {
  header: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}) => {
  if (isBackOfficePath(usePathname())) {
    return children;
  }
  return (
    <>
      {header}
      <main id="main" className="page" tabIndex={-1}>
        {children}
      </main>
      {footer}
    </>
  );
};
