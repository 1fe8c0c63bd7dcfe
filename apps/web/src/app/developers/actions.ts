'use server';

import { isEmailAddress, PASSWORD_LENGTH_WORDS, PLANS, type TPlan } from '@pets/contract/rules';
import type { TIssuedOrgKey } from '@pets/contract/site';
import { MAX_KEY_LIFETIME_DAYS, PLAN_REQUEST_TEXT_MAX } from '@pets/contract/site';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { webConfig } from '@/env';
import {
  askForResetLink,
  BAD_LINK,
  finishPasskeySignIn,
  passwordProblem,
  setPasswordIn,
  signInTo,
  startPasskeySignIn,
  startSessionIn,
  type TPasskeyFinish,
  type TPasskeyStart,
  type TPasswordFormState,
  type TSignInState,
  textOf,
} from '@/lib/account-forms';
import { visitorLimits } from '@/lib/limits';
import {
  finishAddingPasskey,
  removePasskeyOf,
  renamePasskeyOf,
  startAddingPasskey,
  type TAddPasskeyFinish,
  type TAddPasskeyStart,
} from '@/lib/passkey-forms';
import { portalActionFailure } from '@/lib/portal-failure';
import {
  currentDeveloper,
  endEverySession,
  endSession,
  PORTAL_SESSION_EXPIRED_PATH,
  requireDeveloper,
} from '@/lib/session';
import {
  createOrgKey,
  createReferenceKey,
  requestPlanChange,
  resendVerifyEmail,
  revokeOrgKey,
  rollOrgKey,
  signUpDeveloper,
  type TSiteFailure,
  verifyEmail,
  withdrawPlanChange,
} from '@/lib/site-api';
import { currentVisitor } from '@/lib/visitor';

/**
 * The developer portal's forms. Sign-in and password resets are the back office's
 * (lib/account-forms.ts) with the developers' area; the rest is the portal's own: sign up, verify
 * the address, and the organisation's keys.
 */

export type { TPasswordFormState, TSignInState };

export const signIn = async (_previous: TSignInState, data: FormData): Promise<TSignInState> =>
  signInTo('developers', '/developers', data);

/** "Sign in with a passkey", first step: the options (a challenge) for the browser. */
export const passkeyOptions = async (): Promise<TPasskeyStart> => startPasskeySignIn();

/** Second step: the browser's signed answer; the same session as a password sign-in. */
export const passkeySignIn = async (response: unknown, next: unknown): Promise<TPasskeyFinish> =>
  finishPasskeySignIn('developers', '/developers', response, next);

export const signOut = async (): Promise<void> => {
  await endSession();
  redirect('/developers/sign-in?signed-out=1');
};

/** Ends every session of the developer's account, on every device. */
export const signOutEverywhere = async (): Promise<void> => {
  await endEverySession();
  redirect('/developers/sign-in?signed-out=1');
};

/** "Add a passkey" on the account page, first step: the options (a challenge). */
export const addPasskeyOptions = async (): Promise<TAddPasskeyStart> => {
  const developer = await requireDeveloper();
  const answer = await startAddingPasskey(developer.apiKey);
  return 'signedOut' in answer ? redirect(PORTAL_SESSION_EXPIRED_PATH) : answer;
};

/** Second step: the browser's new credential, checked and kept by the API. */
export const addOwnPasskey = async (
  response: unknown,
  name: unknown,
): Promise<TAddPasskeyFinish> => {
  const developer = await requireDeveloper();
  const answer = await finishAddingPasskey(developer.apiKey, response, name);
  if (answer.signedOut) {
    redirect(PORTAL_SESSION_EXPIRED_PATH);
  }
  revalidatePath('/developers/account');
  return answer;
};

/** Removes one of the developer's passkeys (a form: works without JavaScript). */
export const removeOwnPasskey = async (data: FormData): Promise<void> => {
  const developer = await requireDeveloper();
  if (!(await removePasskeyOf(developer.apiKey, textOf(data, 'id')))) {
    redirect(PORTAL_SESSION_EXPIRED_PATH);
  }
  revalidatePath('/developers/account');
  redirect('/developers/account?passkey-removed=1');
};

/** Renames one of the developer's passkeys (a form: works without JavaScript). */
export const renameOwnPasskey = async (data: FormData): Promise<void> => {
  const developer = await requireDeveloper();
  const outcome = await renamePasskeyOf(developer.apiKey, textOf(data, 'id'), textOf(data, 'name'));
  if (outcome === 'signed-out') {
    redirect(PORTAL_SESSION_EXPIRED_PATH);
  }
  revalidatePath('/developers/account');
  redirect(`/developers/account?passkey-renamed=${outcome}`);
};

export const askForReset = async (
  _previous: TPasswordFormState,
  data: FormData,
): Promise<TPasswordFormState> => askForResetLink(data);

export const setNewPassword = async (
  _previous: TPasswordFormState,
  data: FormData,
): Promise<TPasswordFormState> => setPasswordIn('developers', data);

// --- Sign up and verify ---------------------------------------------------------------------

/** What the sign-up form shows after a refusal: the fields typed (never the password). */
export type TSignUpState = {
  error?: string;
  email?: string;
  name?: string;
  organizationName?: string;
};

/**
 * Signs a developer and their organisation up (the API sends the verify email), then signs them
 * in, so the dashboard says "check your email". Each visitor may sign up SIGN-UP times an hour.
 */
export const signUp = async (_previous: TSignUpState, data: FormData): Promise<TSignUpState> => {
  const typed = {
    email: textOf(data, 'email').trim().slice(0, 254),
    name: textOf(data, 'name').trim().slice(0, 100),
    organizationName: textOf(data, 'organizationName').trim().slice(0, 100),
  };
  const password = textOf(data, 'password');
  if (!isEmailAddress(typed.email)) {
    return { ...typed, error: 'Enter your email address.' };
  }
  if (typed.name === '' || typed.organizationName === '') {
    return { ...typed, error: 'Enter your name and the name of your organisation.' };
  }
  const problem = passwordProblem(password, password);
  if (problem) {
    return { ...typed, error: problem };
  }
  const visitor = await currentVisitor();
  const allowed = await visitorLimits().consume('sign-up', visitor.key);
  if (!allowed.ok) {
    return {
      ...typed,
      error: 'Several accounts were signed up from here already. Please try again in an hour.',
    };
  }
  const answer = await signUpDeveloper({ ...typed, password });
  if (!answer.ok) {
    const failure = answer.failure;
    if (failure.kind === 'refused' || failure.kind === 'invalid') {
      return {
        ...typed,
        error:
          // The API names the field first ("email: An account ..."): the words alone here.
          (failure.kind === 'refused' && failure.message.replace(/^[A-Za-z]+: /, '')) ||
          `Check your email address, and choose a password of ${PASSWORD_LENGTH_WORDS}.`,
      };
    }
    // Nothing was made: the attempt does not count against the visitor.
    await visitorLimits().reward('sign-up', visitor.key);
    return {
      ...typed,
      error:
        failure.kind === 'rate-limited' || failure.kind === 'throttled'
          ? 'We are getting a lot of sign-ups. Please try again in a minute.'
          : "We can't reach our records right now. Please try again in a minute.",
    };
  }
  const error = await startSessionIn('developers', typed.email, password);
  redirect(error ? '/developers/sign-in?signed-up=1' : '/developers?welcome=1');
};

export type TVerifyState = { error?: string };

/**
 * Verifies the address of a verify link's token. Opening the link only shows a button: this POST
 * verifies, so a mail scanner that follows links verifies nothing.
 */
export const confirmEmail = async (
  _previous: TVerifyState,
  data: FormData,
): Promise<TVerifyState> => {
  const answer = await verifyEmail(textOf(data, 'token').slice(0, 200));
  if (!answer.ok) {
    return {
      error:
        answer.failure.kind === 'refused' || answer.failure.kind === 'invalid'
          ? BAD_LINK
          : "We can't reach our records right now. Please try again.",
    };
  }
  redirect(
    (await currentDeveloper()) ? '/developers?verified=1' : '/developers/sign-in?verified=1',
  );
};

/**
 * Sends the verify email again (the dashboard of an address not confirmed yet). Counted against
 * the visitor's RESET limit, as the links of reset emails are.
 */
export const resendVerification = async (): Promise<void> => {
  const developer = await requireDeveloper();
  if (developer.emailVerified) {
    redirect('/developers');
  }
  const allowed = await visitorLimits().consume('reset', (await currentVisitor()).key);
  if (!allowed.ok) {
    redirect('/developers?resent=too-many');
  }
  const answer = await resendVerifyEmail(developer.apiKey);
  if (!answer.ok && answer.failure.kind === 'signed-out') {
    redirect(PORTAL_SESSION_EXPIRED_PATH);
  }
  redirect(answer.ok ? '/developers?resent=1' : '/developers?resent=failed');
};

// --- Keys -----------------------------------------------------------------------------------

/** What a key form shows: a refusal, or the key just issued (its plaintext, this once). */
export type TKeyFormState = { error?: string; issued?: TIssuedOrgKey };

const KEY_ID = /^[1-9][0-9]{0,17}$/;

const keyFailure = (failure: TSiteFailure): string =>
  portalActionFailure(failure, {
    refused: 'That key cannot be changed.',
    notFound: 'There is no such key in your organisation.',
  });

/** Creates a key; the answer (this POST's page) shows it once, and it is never sent again. */
export const createKey = async (
  _previous: TKeyFormState,
  data: FormData,
): Promise<TKeyFormState> => {
  const developer = await requireDeveloper();
  const name = textOf(data, 'name').trim();
  if (name === '' || name.length > 100) {
    return { error: 'Give the key a name of up to 100 characters, such as "Shelter app".' };
  }
  const mode = textOf(data, 'mode') === 'live' ? 'live' : 'test';
  const expiry = textOf(data, 'expiresOn');
  let expiresAt: string | undefined;
  if (expiry !== '') {
    const at = Date.parse(`${expiry}T23:59:59Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiry) || Number.isNaN(at) || at <= Date.now()) {
      return { error: 'Choose an expiry date after today, or leave it empty.' };
    }
    if (at > Date.now() + MAX_KEY_LIFETIME_DAYS * 86_400_000) {
      return { error: `Choose an expiry date at most ${MAX_KEY_LIFETIME_DAYS} days ahead.` };
    }
    expiresAt = new Date(at).toISOString();
  }
  const answer = await createOrgKey(developer.apiKey, {
    name,
    mode,
    readOnly: data.get('readOnly') === 'on',
    ...(expiresAt ? { expiresAt } : {}),
  });
  if (!answer.ok) {
    return { error: keyFailure(answer.failure) };
  }
  revalidatePath('/developers/keys');
  return { issued: answer.data };
};

/** The overlaps a roll offers, in hours: now, 1 h, 24 h, 3 days, 7 days. */
const OVERLAPS = new Set([0, 1, 24, 72, 168]);

/** Gives a key a new secret, shown once; the old one works for the overlap chosen. */
export const rollKey = async (_previous: TKeyFormState, data: FormData): Promise<TKeyFormState> => {
  const developer = await requireDeveloper();
  const id = textOf(data, 'id');
  const overlapHours = Number(textOf(data, 'overlapHours'));
  if (!KEY_ID.test(id) || !OVERLAPS.has(overlapHours)) {
    return { error: 'Choose how long the old secret keeps working.' };
  }
  const answer = await rollOrgKey(developer.apiKey, id, overlapHours);
  if (!answer.ok) {
    return { error: keyFailure(answer.failure) };
  }
  revalidatePath('/developers/keys');
  return { issued: answer.data };
};

/** Revokes a key: both its secrets stop working within seconds. */
export const revokeKey = async (
  _previous: TKeyFormState,
  data: FormData,
): Promise<TKeyFormState> => {
  const developer = await requireDeveloper();
  const id = textOf(data, 'id');
  if (!KEY_ID.test(id)) {
    return { error: 'There is no such key in your organisation.' };
  }
  const answer = await revokeOrgKey(developer.apiKey, id);
  if (!answer.ok) {
    return { error: keyFailure(answer.failure) };
  }
  revalidatePath('/developers/keys');
  redirect(`/developers/keys?${new URLSearchParams({ revoked: answer.data.name })}`);
};

/**
 * "Try it in the API reference": a new test, read-only key named "API reference" that expires
 * within the hour (the ones earlier presses made stop working), handed to the reference in the
 * address's fragment, which no server or log ever sees; the reference's script takes it out of
 * the address at once. The portal never keeps it.
 */
export const tryInReference = async (): Promise<void> => {
  const developer = await requireDeveloper();
  const answer = await createReferenceKey(developer.apiKey);
  if (!answer.ok) {
    redirect(`/developers/keys?${new URLSearchParams({ 'try-it': keyFailure(answer.failure) })}`);
  }
  revalidatePath('/developers/keys');
  redirect(`${webConfig().apiBaseUrl}/docs#try-key=${answer.data.key}`);
};

// --- Plan -----------------------------------------------------------------------------------

/** What the plan request form shows after a refusal: the words typed, kept. */
export type TPlanFormState = { error?: string; plan?: string; message?: string };

const planFailure = (failure: TSiteFailure): string => {
  if (failure.kind === 'refused' || failure.kind === 'invalid') {
    const message = failure.kind === 'refused' ? failure.message : failure.error.message;
    // The API names the field first ("plan: ..."): the words alone here.
    return message.replace(/^[A-Za-z]+: /, '') || 'Check the fields of the form.';
  }
  return keyFailure(failure);
};

/** Asks staff for another plan; the page then shows the request as pending. */
export const requestPlan = async (
  _previous: TPlanFormState,
  data: FormData,
): Promise<TPlanFormState> => {
  const developer = await requireDeveloper();
  const plan = textOf(data, 'plan');
  const message = textOf(data, 'message').trim();
  if (!(PLANS as readonly string[]).includes(plan)) {
    return { message, error: 'Choose the plan you would like.' };
  }
  if (message.length > PLAN_REQUEST_TEXT_MAX) {
    return {
      plan,
      message,
      error: `Keep the message to ${PLAN_REQUEST_TEXT_MAX} characters, please.`,
    };
  }
  const answer = await requestPlanChange(developer.apiKey, {
    plan: plan as TPlan,
    ...(message === '' ? {} : { message }),
  });
  if (!answer.ok) {
    return { plan, message, error: planFailure(answer.failure) };
  }
  revalidatePath('/developers/plan');
  redirect('/developers/plan?requested=1');
};

/** Withdraws the pending request (a plain form: works without JavaScript). */
export const withdrawPlan = async (data: FormData): Promise<void> => {
  const developer = await requireDeveloper();
  const id = textOf(data, 'id');
  if (!KEY_ID.test(id)) {
    redirect('/developers/plan');
  }
  const answer = await withdrawPlanChange(developer.apiKey, id);
  if (!answer.ok && answer.failure.kind === 'signed-out') {
    redirect(PORTAL_SESSION_EXPIRED_PATH);
  }
  revalidatePath('/developers/plan');
  redirect(answer.ok ? '/developers/plan?withdrawn=1' : '/developers/plan?withdrawn=failed');
};
