import 'server-only';
import type { TApiKeyRole } from '@pets/contract/schemas';
import { getIronSession, type SessionOptions } from 'iron-session';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { webConfig } from '../env';
import {
  createSessionRecord,
  endEverySessionOf,
  endSessionRecord,
  touchSessionRecord,
} from './session-store';
import { requestedPath } from './visitor';

/**
 * The staff session: one cookie, sealed (encrypted and signed) by iron-session with
 * SESSION_SECRET, `httpOnly`, `SameSite=Lax`, `Secure` when SITE_URL is https (never because of a
 * header a client sent), and gone after SESSION_TTL_SECONDS. It holds the staff member's own API
 * key, which only the server ever unseals: the key is never rendered, logged or sent to the
 * browser in the clear. It also holds a session id that the server's record must still know
 * (session-store.ts): sign out, an idle hour or "sign out everywhere" end the session even while a
 * copy of the cookie lives on.
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
  /** The server's record of this session (session-store.ts). */
  sessionId?: string;
};

/** What pages may know of the session: never the key. */
export type TStaffMember = { name: string; start: string };

const sessionOptions = (): SessionOptions => ({
  password: webConfig().sessionSecret,
  cookieName: SESSION_COOKIE_NAME,
  ttl: SESSION_TTL_SECONDS,
  cookieOptions: {
    httpOnly: true,
    sameSite: 'lax',
    secure: webConfig().isHttps,
    path: '/',
  },
});

/** The session as stored; an absent, expired or tampered cookie reads as an empty session. */
export const readSession = async () =>
  getIronSession<TStaffSession>(await cookies(), sessionOptions());

type TLiveSession = TStaffMember & { apiKey: string; sessionId: string };

/**
 * The session, if its cookie is sound and the server's record still knows it (each use starts its
 * idle time again); undefined otherwise.
 */
const liveSession = async (): Promise<TLiveSession | undefined> => {
  const session = await readSession();
  if (session.role !== 'staff' || !session.apiKey || !session.sessionId) {
    return undefined;
  }
  if (!(await touchSessionRecord(session.sessionId, session.apiKey))) {
    return undefined;
  }
  return {
    name: session.name ?? 'Staff',
    start: session.start ?? '',
    apiKey: session.apiKey,
    sessionId: session.sessionId,
  };
};

/** Whether a staff member is signed in (the footer hides "Staff sign in" then). */
export const isSignedIn = async (): Promise<boolean> => (await liveSession()) !== undefined;

/** The signed-in staff key, or undefined. Only server actions and staff-api.ts use it. */
export const staffKey = async (): Promise<string | undefined> => (await liveSession())?.apiKey;

/**
 * Where sign-in sends someone who asked for a back-office page while signed out: that page, once
 * signed in. Only a path of the back office itself, never another site.
 */
export const safeReturnPath = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || value.length > 512) {
    return undefined;
  }
  return /^\/staff(\/[^\\]*)?(\?[^\\]*)?$/.test(value) &&
    !value.startsWith('//') &&
    !value.startsWith(SIGN_IN_PATH)
    ? value
    : undefined;
};

const toSignIn = async (): Promise<never> => {
  const back = safeReturnPath(await requestedPath());
  redirect(back ? `${SIGN_IN_PATH}?${new URLSearchParams({ next: back })}` : SIGN_IN_PATH);
};

/** For pages: the staff member (name and display start), or a redirect to the sign-in page. */
export const requireStaff = async (): Promise<TStaffMember> => {
  const session = (await liveSession()) ?? (await toSignIn());
  return { name: session.name, start: session.start };
};

/**
 * For pages that call the API: the staff member and their key, or a redirect to sign-in. The key
 * goes to staff-api.ts only; never into props of a client component or into the page.
 */
export const requireStaffKey = async (): Promise<TStaffMember & { apiKey: string }> => {
  const session = (await liveSession()) ?? (await toSignIn());
  return { name: session.name, start: session.start, apiKey: session.apiKey };
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
  session.sessionId = await createSessionRecord(apiKey, SESSION_TTL_SECONDS);
  await session.save();
};

/**
 * Ends the server's record of this session (sign out, or a key the API no longer accepts): a copy
 * of the cookie is worth nothing from now on. Pages may call it (it writes no cookie).
 */
export const endSessionRecordOfCookie = async () => {
  const session = await readSession();
  if (session.sessionId) {
    await endSessionRecord(session.sessionId).catch(() => undefined);
  }
};

/** Signs out here: the record ends and the cookie is cleared. Server actions only. */
export const endSession = async () => {
  await endSessionRecordOfCookie();
  (await readSession()).destroy();
};

/** Signs the key out of every session it has, on every device, this one included. */
export const endEverySession = async () => {
  const session = await readSession();
  if (session.apiKey) {
    await endEverySessionOf(session.apiKey);
  }
  session.destroy();
};
