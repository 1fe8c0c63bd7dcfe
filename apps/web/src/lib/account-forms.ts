import { isEmailAddress, PASSWORD_LENGTH, PASSWORD_LENGTH_WORDS } from '@pets/contract/rules';
import 'server-only';
import { type TPasskeyOptions, type TSignInArea, ZPasskeyAssertion } from '@pets/contract/site';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { webConfig } from '../env';
import { visitorLimits } from './limits';
import { deviceToken, SIGN_IN_PATHS, safeReturnPath, startSession } from './session';
import {
  passkeySignInOptions,
  requestPasswordReset,
  resetPassword,
  signInWithPasskey,
  signInWithPassword,
} from './site-api';
import { currentVisitor } from './visitor';

/**
 * What the back office (/staff) and the developer portal (/developers) do alike with people's
 * forms: sign in, ask for a reset link, set a new password. Each area's `actions.ts` ('use server')
 * names its area; the area is never read from the form, so a post cannot pick another one.
 */

/** What the sign-in form shows after a refusal, and the email typed (never the password). */
export type TSignInState = { error?: string; email?: string };

/** What a password form shows after a refusal (never the password). */
export type TPasswordFormState = { error?: string; email?: string; sent?: boolean };

export const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

const minutesOf = (seconds: number): string => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
};

const tooManyFromHere = (seconds: number): string =>
  `Too many sign-ins were refused from here. To protect the site, please wait ${minutesOf(
    seconds,
  )} before trying again.`;

const tooManyForAccount = (seconds: number): string =>
  `Too many attempts for this account. Please wait ${minutesOf(
    seconds,
  )}, sign in from a device you have used before, or reset your password.`;

/** The words of a new password's refusal, if any: the API's own rule (ZPassword), said first here. */
export const passwordProblem = (password: string, repeated: string): string | undefined => {
  if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
    return `Choose a password of ${PASSWORD_LENGTH_WORDS}.`;
  }
  if (password !== repeated) {
    return 'The two passwords are not the same.';
  }
  return undefined;
};

type TSignInAnswer = Awaited<ReturnType<typeof signInWithPassword>>;

/**
 * Asks the API to sign a person in to an area and keeps the session in the sealed cookie. The
 * visitor's SIGN-IN limit is counted before the API is asked, and given back unless the API said
 * the email and password do not match. The refusal's words, or undefined once signed in.
 */
export const startSessionIn = async (
  area: TSignInArea,
  email: string,
  password: string,
): Promise<string | undefined> => {
  const visitor = await currentVisitor();
  const limits = visitorLimits();
  const attempt = await limits.consume('sign-in', visitor.key);
  if (!attempt.ok) {
    return tooManyFromHere(attempt.retryAfterSeconds);
  }
  const answer: TSignInAnswer = await signInWithPassword({
    area,
    email,
    password,
    idleSeconds: webConfig().staffSessionIdleSeconds,
    userAgent: (await headers()).get('user-agent')?.slice(0, 1000) ?? undefined,
    deviceToken: await deviceToken(),
  });
  if (!answer.ok && answer.failure.kind === 'signed-out') {
    return 'That email and password do not match.';
  }
  // Not a wrong password: the attempt does not count against the visitor.
  await limits.reward('sign-in', visitor.key);
  if (!answer.ok) {
    const failure = answer.failure;
    switch (failure.kind) {
      case 'throttled':
      case 'rate-limited':
        return tooManyForAccount(failure.retryAfterSeconds);
      case 'refused':
        return failure.status === 400
          ? 'Enter a valid email address and your password.'
          : failure.message || 'This account cannot sign in here.';
      case 'unavailable':
        return "We can't reach our records right now. Please try again in a minute.";
      default:
        return 'Something went wrong on our side. Please try again.';
    }
  }
  await startSession(answer.data);
  return undefined;
};

/**
 * The sign-in form of an area: email and password; once signed in, the page that sent the person
 * here (a path of the same area) or the area's home.
 */
export const signInTo = async (
  area: TSignInArea,
  home: string,
  data: FormData,
): Promise<TSignInState> => {
  const email = textOf(data, 'email').trim().slice(0, 254);
  const password = textOf(data, 'password');
  if (email === '' || password === '') {
    return { error: 'Enter your email address and your password.', email };
  }
  if (password.length > PASSWORD_LENGTH.max) {
    return { error: 'That email and password do not match.', email };
  }
  const error = await startSessionIn(area, email, password);
  if (error) {
    return { error, email };
  }
  redirect(safeReturnPath(data.get('next'), area) ?? home);
};

/** The options a passkey sign-in starts with, or the words of why not. */
export type TPasskeyStart = { options: TPasskeyOptions } | { error: string };
/** A passkey sign-in's refusal (on success the action redirects). */
export type TPasskeyFinish = { error: string };

/**
 * The first step of "Sign in with a passkey": the API's options (its challenge). Each visitor may
 * start PASSKEY of them per window here.
 */
export const startPasskeySignIn = async (): Promise<TPasskeyStart> => {
  const visitor = await currentVisitor();
  const attempt = await visitorLimits().consume('passkey', visitor.key);
  if (!attempt.ok) {
    return {
      error: `Too many passkey sign-ins were started from here. Please wait ${minutesOf(
        attempt.retryAfterSeconds,
      )}, or sign in with your password.`,
    };
  }
  const answer = await passkeySignInOptions();
  if (!answer.ok) {
    return { error: "We can't reach our records right now. Please try again in a minute." };
  }
  return { options: answer.data };
};

/**
 * The second step: the browser's signed answer goes to the API, which checks it and starts the
 * same session a password does; kept in the sealed cookie, then on to the page asked for.
 */
export const finishPasskeySignIn = async (
  area: TSignInArea,
  home: string,
  response: unknown,
  next: unknown,
): Promise<TPasskeyFinish> => {
  const parsed = ZPasskeyAssertion.safeParse(response);
  if (!parsed.success) {
    // Which field: a browser's answer the contract does not describe is worth knowing about.
    console.warn(
      `[web] passkey sign-in: an answer refused (${parsed.error.issues
        .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
        .join('; ')})`,
    );
    return { error: 'That passkey answer was not understood. Please try again.' };
  }
  const answer = await signInWithPasskey({
    area,
    response: parsed.data,
    idleSeconds: webConfig().staffSessionIdleSeconds,
    userAgent: (await headers()).get('user-agent')?.slice(0, 1000) ?? undefined,
  });
  if (!answer.ok) {
    const failure = answer.failure;
    switch (failure.kind) {
      case 'signed-out':
        return {
          error:
            'That passkey did not sign you in: it may have been removed from your account. Use your password, or another passkey.',
        };
      case 'throttled':
      case 'rate-limited':
        return { error: tooManyFromHere(failure.retryAfterSeconds) };
      case 'refused':
        return { error: failure.message || 'This account cannot sign in here.' };
      case 'unavailable':
        return { error: "We can't reach our records right now. Please try again in a minute." };
      default:
        return { error: 'Something went wrong on our side. Please try again.' };
    }
  }
  await startSession(answer.data);
  redirect(safeReturnPath(next, area) ?? home);
};

/**
 * "Email me a reset link": the same answer for any address (the API sends at most a few an hour
 * to one address), and each visitor may ask RESET times an hour here. The API links to the reset
 * page of the account's own area.
 */
export const askForResetLink = async (data: FormData): Promise<TPasswordFormState> => {
  const email = textOf(data, 'email').trim().slice(0, 254);
  if (!isEmailAddress(email)) {
    return { error: 'Enter the email address you sign in with.', email };
  }
  const visitor = await currentVisitor();
  const attempt = await visitorLimits().consume('reset', visitor.key);
  if (!attempt.ok) {
    return {
      error: 'Too many reset links were asked for from here. Please try again in an hour.',
      email,
    };
  }
  const answer = await requestPasswordReset(email);
  if (!answer.ok) {
    return {
      error:
        answer.failure.kind === 'refused'
          ? 'Enter the email address you sign in with.'
          : "We can't send it right now. Please try again in a minute.",
      email,
    };
  }
  return { sent: true, email };
};

export const BAD_LINK =
  'This link is not valid: it may have expired or been used already. Ask for a new one.';

export const linkFailure = (kind: string): string =>
  kind === 'refused' ? BAD_LINK : "We can't reach our records right now. Please try again.";

/** Sets a new password with a reset link's token (every session then ends), then sign-in. */
export const setPasswordIn = async (
  area: TSignInArea,
  data: FormData,
): Promise<TPasswordFormState> => {
  const password = textOf(data, 'password');
  const problem = passwordProblem(password, textOf(data, 'repeat'));
  if (problem) {
    return { error: problem };
  }
  const answer = await resetPassword(textOf(data, 'token'), password);
  if (!answer.ok) {
    return { error: linkFailure(answer.failure.kind) };
  }
  redirect(`${SIGN_IN_PATHS[area]}?reset=1`);
};
