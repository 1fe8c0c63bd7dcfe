import 'server-only';
import type { TApiKeyRole } from '@pets/contract/schemas';
import { getIronSession, type SessionOptions } from 'iron-session';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { webConfig } from '../env';

/**
 * The staff session: one cookie, sealed (encrypted and signed) by iron-session with
 * SESSION_SECRET, `httpOnly`, `SameSite=Lax`, `Secure` when the site is reached over HTTPS, and
 * gone after SESSION_TTL_SECONDS. It holds the staff member's own API key, which only the server
 * ever unseals: the key is never rendered, logged or sent to the browser in the clear.
 */

export const SESSION_COOKIE_NAME = 'pets_staff_session';
/** A working day: sign in at the start of a shift, not again during it. */
export const SESSION_TTL_SECONDS = 8 * 60 * 60;
export const SIGN_IN_PATH = '/staff/sign-in';

export type TStaffSession = {
  /** The staff API key: sent to the API on each staff action, nothing else. */
  apiKey?: string;
  role?: TApiKeyRole;
  /** The key's name and display start, shown in the staff header. */
  name?: string;
  start?: string;
};

/** What pages may know of the session: never the key. */
export type TStaffMember = { name: string; start: string };

const isHttps = async (): Promise<boolean> => {
  const forwarded = (await headers()).get('x-forwarded-proto');
  return forwarded?.split(',')[0]?.trim().toLowerCase() === 'https';
};

const sessionOptions = async (): Promise<SessionOptions> => ({
  password: webConfig().sessionSecret,
  cookieName: SESSION_COOKIE_NAME,
  ttl: SESSION_TTL_SECONDS,
  cookieOptions: {
    httpOnly: true,
    sameSite: 'lax',
    secure: await isHttps(),
    path: '/',
  },
});

/** The session as stored; an absent, expired or tampered cookie reads as an empty session. */
export const readSession = async () =>
  getIronSession<TStaffSession>(await cookies(), await sessionOptions());

/** The signed-in staff key, or undefined. Only server actions and staff-api.ts use it. */
export const staffKey = async (): Promise<string | undefined> => {
  const session = await readSession();
  return session.role === 'staff' && session.apiKey ? session.apiKey : undefined;
};

/** For pages: the staff member (name and display start), or a redirect to the sign-in page. */
export const requireStaff = async (): Promise<TStaffMember> => {
  const session = await readSession();
  if (session.role !== 'staff' || !session.apiKey) {
    redirect(SIGN_IN_PATH);
  }
  return { name: session.name ?? 'Staff', start: session.start ?? '' };
};

/**
 * For pages that call the API: the staff member and their key, or a redirect to sign-in. The key
 * goes to staff-api.ts only; never into props of a client component or into the page.
 */
export const requireStaffKey = async (): Promise<TStaffMember & { apiKey: string }> => {
  const session = await readSession();
  if (session.role !== 'staff' || !session.apiKey) {
    redirect(SIGN_IN_PATH);
  }
  return { name: session.name ?? 'Staff', start: session.start ?? '', apiKey: session.apiKey };
};

/** Where a page goes when the API no longer accepts the session's key (revoked meanwhile). */
export const SESSION_EXPIRED_PATH = `${SIGN_IN_PATH}?expired=1`;

/** Starts a session for a key the API said is a writable staff key. Server actions only. */
export const startSession = async (apiKey: string, who: { name: string; start: string }) => {
  const session = await readSession();
  session.apiKey = apiKey;
  session.role = 'staff';
  session.name = who.name;
  session.start = who.start;
  await session.save();
};

/** Forgets the session (sign out, or a key the API no longer accepts). Server actions only. */
export const endSession = async () => {
  const session = await readSession();
  session.destroy();
};
