import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site-header';
import { StoreFooterLine } from '@/components/store-visit';
import { isSignedIn } from '@/lib/session';
import { STORE_NAME } from '@/lib/site';
import './globals.css';

export const metadata: Metadata = {
  title: { default: `${STORE_NAME}: animals looking for a home`, template: `%s · ${STORE_NAME}` },
  description: 'Find a dog, a cat, a rabbit or a bird to adopt, and meet them at our store.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: '#fbf8f4',
};

/** The footer's quiet door to the back office, hidden while a staff member is signed in. */
const StaffDoor = async () =>
  (await isSignedIn()) ? null : (
    <p>
      <Link href="/staff/sign-in" className="site-footer__staff">
        Staff sign in
      </Link>
    </p>
  );

const RootLayout = ({ children }: { children: ReactNode }) => (
  <html lang="en">
    <body>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="page" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <p>
          {STORE_NAME} · Every animal here is waiting to meet you. <StoreFooterLine />
        </p>
        <StaffDoor />
      </footer>
    </body>
  </html>
);

export default RootLayout;
