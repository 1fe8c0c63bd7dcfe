'use client';

import { PawPrint } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

/**
 * The store's name, "Browse", "How adoption works" and "Favourites"; the current page is marked for screen
 * readers. Nothing here changes the catalogue: adding animals is staff work, behind sign-in under
 * /staff. The name comes from the server (STORE_NAME), as this component runs in the browser too.
 */
export const SiteHeader = ({ storeName }: { storeName: string }) => {
  const pathname = usePathname();
  const current = (href: string) => (pathname === href ? 'page' : undefined);
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link href="/" className="brand">
          <PawPrint aria-hidden="true" focusable="false" className="brand__icon" strokeWidth={2} />
          {storeName}
        </Link>
        <nav aria-label="Main" className="site-nav">
          <Link href="/" className="site-nav__link" aria-current={current('/')}>
            Browse
          </Link>
          <Link
            href="/how-adoption-works"
            className="site-nav__link"
            aria-current={current('/how-adoption-works')}
          >
            How adoption works
          </Link>
          <Link href="/favourites" className="site-nav__link" aria-current={current('/favourites')}>
            Favourites
          </Link>
        </nav>
      </div>
    </header>
  );
};
