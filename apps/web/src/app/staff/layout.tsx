import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { storeConfig } from '@/env';
import { currentStaff } from '@/lib/session';
import { BackOfficeHeader } from './back-office-header';

export const metadata: Metadata = { robots: { index: false } };

/**
 * Every /staff page, the sign-in doors included: the back office's own header (the store's name
 * and "Back office", then, signed in, its sections, the person and "Sign out") and page, without
 * the public site's header and footer (components/site-frame.tsx). Each back-office page still
 * checks the session itself: a layout is not drawn again on every navigation.
 */
const StaffLayout = async ({ children }: { children: ReactNode }) => {
  await connection();
  const member = await currentStaff();
  return (
    <>
      <BackOfficeHeader
        storeName={storeConfig().name}
        member={member && { name: member.name, isAdmin: member.role === 'admin' }}
      />
      <main id="main" className="page back-office" tabIndex={-1}>
        {children}
      </main>
    </>
  );
};

export default StaffLayout;
