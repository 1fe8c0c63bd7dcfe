'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/developers', label: 'Dashboard' },
  { href: '/developers/keys', label: 'Keys' },
  { href: '/developers/usage', label: 'Usage' },
  { href: '/developers/webhooks', label: 'Webhooks' },
  { href: '/developers/plan', label: 'Plan' },
  { href: '/developers/account', label: 'Account' },
] as const;

/** The portal's own navigation; the current section is marked for screen readers. */
export const DevelopersNav = ({ referenceHref }: { referenceHref: string }) => {
  const pathname = usePathname();
  const current =
    pathname === '/developers'
      ? '/developers'
      : LINKS.find(({ href }) => href !== '/developers' && pathname.startsWith(href))?.href;
  return (
    <nav aria-label="Developers" className="staff-band__nav">
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
      <a href={referenceHref} className="site-nav__link">
        API reference
      </a>
    </nav>
  );
};
