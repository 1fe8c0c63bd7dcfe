'use client';

import { PawPrint } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { STORE_NAME } from '@/lib/site';

/**
 * The store's name and "Browse"; the current page is marked for screen readers. Nothing here
 * changes the catalogue: adding animals is staff work, behind sign-in under /staff.
 */
export const SiteHeader = () => {
  const pathname = usePathname();
  const isBrowse = pathname === '/';
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link href="/" className="brand">
          <PawPrint aria-hidden="true" focusable="false" className="brand__icon" strokeWidth={2} />
          {STORE_NAME}
        </Link>
        <nav aria-label="Main" className="site-nav">
          <Link href="/" className="site-nav__link" aria-current={isBrowse ? 'page' : undefined}>
            Browse
          </Link>
        </nav>
      </div>
    </header>
  );
};
