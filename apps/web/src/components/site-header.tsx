'use client';

import { PawPrint, Plus } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { STORE_NAME } from '@/lib/site';

/** The store's name, "Browse" and "Add an animal"; the current one is marked for screen readers. */
export const SiteHeader = () => {
  const pathname = usePathname();
  const isAdd = pathname === '/pets/new';
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
          <Link
            href="/pets/new"
            className="button button--small"
            aria-current={isAdd ? 'page' : undefined}
          >
            <Plus aria-hidden="true" focusable="false" className="button__icon" strokeWidth={2.5} />
            Add an animal
          </Link>
        </nav>
      </div>
    </header>
  );
};
