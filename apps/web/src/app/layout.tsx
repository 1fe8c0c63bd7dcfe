import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { SiteFrame } from '@/components/site-frame';
import { SiteHeader } from '@/components/site-header';
import { StoreFooter } from '@/components/store-visit';
import { storeConfig } from '@/env';
import { isSignedIn } from '@/lib/session';
import './globals.css';

/** Per request, like every page: STORE_NAME is read at run time, never baked in at build. */
export const generateMetadata = async (): Promise<Metadata> => {
  await connection();
  const { name } = storeConfig();
  return {
    title: { default: `${name}: animals looking for a home`, template: `%s · ${name}` },
    description: 'Find a dog, a cat, a rabbit or a bird to adopt, and meet them at our store.',
  };
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: '#fbf8f4',
};

/**
 * The footer's quiet doors: to the back office (hidden while a staff member is signed in) and to
 * the developer portal, for people who build on the store's API. Not prefetched: few visitors
 * take them, and their answers are `no-store`, which would keep every public page out of the
 * browser's back/forward cache.
 */
const StaffDoor = async () => (
  <p className="site-footer__doors">
    {(await isSignedIn()) ? null : (
      <Link href="/staff/sign-in" className="site-footer__staff" prefetch={false}>
        Staff sign in
      </Link>
    )}
    <Link href="/developers" className="site-footer__staff" prefetch={false}>
      Developers
    </Link>
  </p>
);

/** The header with the store's name, read on the server (the header also runs in the browser). */
const Header = async () => {
  await connection();
  return <SiteHeader storeName={storeConfig().name} />;
};

const RootLayout = ({ children }: { children: ReactNode }) => (
  <html lang="en">
    <body>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteFrame
        header={<Header />}
        footer={
          <footer className="site-footer">
            <StoreFooter />
            <StaffDoor />
          </footer>
        }
      >
        {children}
      </SiteFrame>
    </body>
  </html>
);

export default RootLayout;
