import 'server-only';
import type { TAccountRole, TSignInArea } from '@pets/contract/site';
import { getIronSession, type SessionOptions } from 'iron-session';
import { cookies } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { webConfig } from '../env';
import { sameSitePath } from './return-path';
import { getSession, revokeAllSessions, signOutSession } from './site-api';
import { requestedPath } from './visitor';

/**
 * A person's session at the site: one cookie, sealed (encrypted and signed) by iron-session with
 * SESSION_SECRET, `httpOnly`, `SameSite=Lax`, `Secure` when SITE_URL is https (never because of a
 * header a client sent). It holds the session credential the API issued at sign-in, which only the
 * server ever unseals: it is never rendered, logged or sent to the browser in the clear, and the
 * API accepts it only with the site's first-party key beside it. The session itself lives in the
 * API (account_sessions): each request asks the API once whether it is still open, so sign-out,
 * "sign out everywhere", the idle limit, a deactivated account or a reset password end it even
 * while a copy of the cookie lives on. The site keeps no state of its own.
 */

export const SESSION_COOKIE_NAME = 'pets_session';
/** Proves at sign-in that this browser signed in to that account before (the API's throttling). */
export const DEVICE_COOKIE_NAME = 'pets_device';
const DEVICE_COOKIE_SECONDS = 365 * 86_400;
export const SIGN_IN_PATH = '/staff/sign-in';
/** Each area's sign-in page: staff and admins at /staff, developers at /developers. */
export const SIGN_IN_PATHS: Record<TSignInArea, string> = {
  staff: SIGN_IN_PATH,
  developers: '/developers/sign-in',
};
/** The roles each area opens for: a staff session never opens the portal, nor the reverse. */
const AREA_OF_ROLE: Record<TAccountRole, TSignInArea> = {
  admin: 'staff',
  staff: 'staff',
  developer: 'developers',
};

type TSessionCookie = {
  credential?: string;
  sessionId?: string;
  accountId?: string;
  name?: string;
  role?: TAccountRole;
};

/** What pages may know of the session: never the credential. */
export type TStaffMember = { name: string; role: TAccountRole; accountId: string };

const sessionOptions = (ttlSeconds = 8 * 60 * 60): SessionOptions => ({
  password: webConfig().sessionSecret,
  cookieName: SESSION_COOKIE_NAME,
  ttl: ttlSeconds,
  cookieOptions: {
    httpOnly: true,
    sameSite: 'lax',
    secure: webConfig().isHttps,
    path: '/',
  },
});

/** The cookie as stored; an absent, expired or tampered cookie reads as an empty session. */
const readSession = async (ttlSeconds?: number) =>
  getIronSession<TSessionCookie>(await cookies(), sessionOptions(ttlSeconds));

type TLiveSession = TStaffMember & {
  credential: string;
  sessionId: string;
  email: string;
  emailVerified: boolean;
};

/**
 * The session of an area, if its cookie is sound, its role belongs to the area and the API says it
 * is still open (each use starts its idle time again), else undefined. Asked once per request and
 * area (React `cache`), however many parts of the page want it. A staff session never opens the
 * portal, and a developer's session never opens the back office.
 */
const liveSessionIn = cache(async (area: TSignInArea): Promise<TLiveSession | undefined> => {
  const cookie = await readSession();
  if (!cookie.credential || !cookie.role || AREA_OF_ROLE[cookie.role] !== area) {
    return undefined;
  }
  const answer = await getSession(cookie.credential);
  if (!answer.ok) {
    return undefined;
  }
  const { account, session } = answer.data;
  if (AREA_OF_ROLE[account.role] !== area) {
    return undefined;
  }
  return {
    name: account.name,
    role: account.role,
    accountId: account.id,
    email: account.email,
    emailVerified: account.emailVerified,
    credential: cookie.credential,
    sessionId: session.id,
  };
});

/** Only staff and admins: a developer's session is for the portal. */
const liveSession = () => liveSessionIn('staff');

/** Whether a staff member is signed in (the footer hides "Staff sign in" then). */
export const isSignedIn = async (area: TSignInArea = 'staff'): Promise<boolean> => {
  // No cookie, no question to the API: public pages stay free of it.
  if (!(await cookies()).has(SESSION_COOKIE_NAME)) {
    return false;
  }
  return (await liveSessionIn(area)) !== undefined;
};

/** The signed-in staff member (name and role), or undefined: for the back office's header. */
export const currentStaff = async (): Promise<TStaffMember | undefined> => {
  if (!(await cookies()).has(SESSION_COOKIE_NAME)) {
    return undefined;
  }
  const session = await liveSession();
  return session && { name: session.name, role: session.role, accountId: session.accountId };
};

/** The signed-in person's credential, or undefined. Only server actions and the API clients use it. */
export const staffKey = async (): Promise<string | undefined> => (await liveSession())?.credential;

/**
 * Where sign-in sends someone who asked for a page of an area while signed out: that page, once
 * signed in. Only a path of that area itself, by the site's one return-path rule (never another
 * site, however spelled, nor the sign-in page).
 */
export const safeReturnPath = (value: unknown, area: TSignInArea = 'staff'): string | undefined =>
  sameSitePath(value, {
    within: area === 'staff' ? '/staff' : '/developers',
    except: [SIGN_IN_PATHS[area]],
  });

const toSignIn = async (area: TSignInArea = 'staff'): Promise<never> => {
  const back = safeReturnPath(await requestedPath(), area);
  const path = SIGN_IN_PATHS[area];
  redirect(back ? `${path}?${new URLSearchParams({ next: back })}` : path);
};

/** What the portal's pages know of the developer: never the credential, except `apiKey` for calls. */
export type TDeveloper = {
  name: string;
  email: string;
  emailVerified: boolean;
  accountId: string;
  apiKey: string;
};

/** The signed-in developer, if any, without a redirect (the portal's header). */
export const currentDeveloper = async (): Promise<TDeveloper | undefined> => {
  if (!(await cookies()).has(SESSION_COOKIE_NAME)) {
    return undefined;
  }
  const session = await liveSessionIn('developers');
  return session
    ? {
        name: session.name,
        email: session.email,
        emailVerified: session.emailVerified,
        accountId: session.accountId,
        apiKey: session.credential,
      }
    : undefined;
};

/** Where a portal page goes when the API no longer accepts the developer's session. */
export const PORTAL_SESSION_EXPIRED_PATH = '/developers/sign-in?expired=1';

/**
 * For the portal's pages and actions: the signed-in developer and their credential (for
 * site-api.ts only, never into a client component's props), or a redirect to the portal's sign-in.
 */
export const requireDeveloper = async (): Promise<TDeveloper> => {
  const session = (await liveSessionIn('developers')) ?? (await toSignIn('developers'));
  return {
    name: session.name,
    email: session.email,
    emailVerified: session.emailVerified,
    accountId: session.accountId,
    apiKey: session.credential,
  };
};

/** For pages: the staff member (name and role), or a redirect to the sign-in page. */
export const requireStaff = async (): Promise<TStaffMember> => {
  const session = (await liveSession()) ?? (await toSignIn());
  return { name: session.name, role: session.role, accountId: session.accountId };
};

/** For the admins' pages: an admin, a 404 for staff (the page is not theirs), or sign-in. */
export const requireAdmin = async (): Promise<TStaffMember & { apiKey: string; email: string }> => {
  const session = (await liveSession()) ?? (await toSignIn());
  if (session.role !== 'admin') {
    notFound();
  }
  return {
    name: session.name,
    role: session.role,
    accountId: session.accountId,
    apiKey: session.credential,
    email: session.email,
  };
};

/**
 * For pages that call the API: the staff member and their credential, or a redirect to sign-in.
 * The credential goes to staff-api.ts and site-api.ts only; never into props of a client component
 * or into the page.
 */
export const requireStaffKey = async (): Promise<TStaffMember & { apiKey: string }> => {
  const session = (await liveSession()) ?? (await toSignIn());
  return {
    name: session.name,
    role: session.role,
    accountId: session.accountId,
    apiKey: session.credential,
  };
};

/** Where a page goes when the API no longer accepts the session's credential. */
export const SESSION_EXPIRED_PATH = `${SIGN_IN_PATH}?expired=1`;

type TStartedSession = {
  credential: string;
  session: { id: string; expiresAt: string };
  account: { id: string; name: string; role: TAccountRole };
  deviceToken: string;
};

/**
 * Keeps a session the API started (sign-in) in the sealed cookie, for as long as the session may
 * live, and this device's token beside it. Server actions only.
 */
export const startSession = async (started: TStartedSession) => {
  const ttl = Math.max(60, Math.floor((Date.parse(started.session.expiresAt) - Date.now()) / 1000));
  const session = await readSession(ttl);
  session.credential = started.credential;
  session.sessionId = started.session.id;
  session.accountId = started.account.id;
  session.name = started.account.name;
  session.role = started.account.role;
  await session.save();
  (await cookies()).set(DEVICE_COOKIE_NAME, started.deviceToken, {
    httpOnly: true,
    sameSite: 'lax',
    secure: webConfig().isHttps,
    path: '/',
    maxAge: DEVICE_COOKIE_SECONDS,
  });
};

/** This browser's device token, if it signed in before. */
export const deviceToken = async (): Promise<string | undefined> => {
  const value = (await cookies()).get(DEVICE_COOKIE_NAME)?.value;
  return value && value.length <= 200 ? value : undefined;
};

/**
 * Signs out here: the API ends the session and its credential at once (a copy of the cookie is
 * worth nothing from now on), then the cookie is cleared. Server actions only.
 */
export const endSession = async () => {
  const session = await readSession();
  if (session.credential) {
    await signOutSession(session.credential);
  }
  session.destroy();
};

/** Ends every session of the person, on every device, this one included. */
export const endEverySession = async () => {
  const session = await readSession();
  if (session.credential) {
    await revokeAllSessions(session.credential);
  }
  session.destroy();
};
