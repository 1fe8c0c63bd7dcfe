import { LogOut } from 'lucide-react';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { webConfig } from '@/env';
import { currentDeveloper } from '@/lib/session';
import { signOut } from './actions';
import { DevelopersNav } from './developers-nav';

export const metadata: Metadata = { robots: { index: false } };

/**
 * Every page of the developer portal: a calm band that says "Developers", with the portal's
 * navigation and "Sign out" for a signed-in developer, "Sign in" and "Sign up" otherwise. Each
 * portal page checks the session itself (a layout is not re-run on every navigation).
 */
const DevelopersLayout = async ({ children }: { children: ReactNode }) => {
  await connection();
  const developer = await currentDeveloper();
  return (
    <div className="staff portal">
      <div className="staff-band portal-band">
        <p className="staff-band__label portal-band__label">Developers</p>
        {developer ? (
          <>
            <DevelopersNav referenceHref={`${webConfig().apiBaseUrl}/docs`} />
            <div className="staff-band__who">
              <span>
                Signed in as <strong>{developer.name}</strong>
              </span>
              <form action={signOut}>
                <button type="submit" className="button button--small button--secondary">
                  <LogOut aria-hidden="true" focusable="false" className="button__icon" />
                  Sign out
                </button>
              </form>
            </div>
          </>
        ) : (
          <nav aria-label="Developers" className="staff-band__nav">
            <a href="/developers/sign-in" className="site-nav__link">
              Sign in
            </a>
            <a href="/developers/sign-up" className="site-nav__link">
              Sign up
            </a>
            <a href={`${webConfig().apiBaseUrl}/docs`} className="site-nav__link">
              API reference
            </a>
          </nav>
        )}
      </div>
      {children}
    </div>
  );
};

export default DevelopersLayout;
