'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/staff/applications', label: 'Applications' },
  { href: '/staff/animals', label: 'Animals' },
  { href: '/staff/animals/new', label: 'Add an animal' },
  { href: '/staff/searches', label: 'Saved searches' },
  { href: '/staff/plans', label: 'Plans' },
] as const;
/** Only admins see these (the pages answer 404 to staff). */
const ADMIN_LINKS = [
  { href: '/staff/team', label: 'Team' },
  { href: '/staff/audit', label: 'Audit log' },
  { href: '/staff/mail', label: 'Mail' },
] as const;
const ACCOUNT_LINK = { href: '/staff/account', label: 'Your account' } as const;

/** The back office's own navigation; the current section is marked for screen readers. */
export const StaffNav = ({ isAdmin }: { isAdmin: boolean }) => {
  const pathname = usePathname();
  const links = [...LINKS, ...(isAdmin ? ADMIN_LINKS : []), ACCOUNT_LINK];
  const current =
    pathname === '/staff/animals/new'
      ? '/staff/animals/new'
      : links.find(({ href }) => pathname.startsWith(href))?.href;
  return (
    <nav aria-label="Staff" className="back-office-nav">
      {links.map(({ href, label }) => (
        <Link
          key={href}
          href={href}
          className="back-office-nav__link"
          aria-current={current === href ? 'page' : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
};
