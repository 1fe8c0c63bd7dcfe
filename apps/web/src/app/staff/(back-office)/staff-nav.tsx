'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/staff/applications', label: 'Applications' },
  { href: '/staff/animals', label: 'Animals' },
  { href: '/staff/animals/new', label: 'Add an animal' },
  { href: '/staff/mail', label: 'Mail' },
] as const;

/** The back office's own navigation; the current section is marked for screen readers. */
export const StaffNav = () => {
  const pathname = usePathname();
  const current =
    pathname === '/staff/animals/new'
      ? '/staff/animals/new'
      : LINKS.find(({ href }) => pathname.startsWith(href))?.href;
  return (
    <nav aria-label="Staff" className="staff-band__nav">
      {LINKS.map(({ href, label }) => (
        <Link
          key={href}
          href={href}
          className="site-nav__link"
          aria-current={current === href ? 'page' : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
};
