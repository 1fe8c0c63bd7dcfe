'use server';

import type { TCreateOrgKey, TIssuedOrgKey, TRequestPlanChange } from '@pets/contract/site';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { TCheckedFormState } from '@/components/form/use-checked-form';
import { webConfig } from '@/env';
import {
  askForResetLink,
  BAD_LINK,
  finishPasskeySignIn,
  setPasswordIn,
  signInTo,
  startPasskeySignIn,
  startSessionIn,
  type TNewPasswordState,
  type TPasskeyFinish,
  type TPasskeyStart,
  type TResetState,
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
import { portalActionFailure, portalRefusal } from '@/lib/portal-failure';
import {
  readPortalForm,
  refusedPortalForm,
  sendPortalForm,
  type TPortalForm,
} from '@/lib/portal-form';
import {
  checkKey,
  checkPlan,
  checkRoll,
  checkSignUp,
  KEY_WORDS,
  PLAN_WORDS,
  ROLL_WORDS,
  SIGN_UP_WORDS,
  type TSignUpInput,
} from '@/lib/portal-form-checks';
import {
  EMPTY_KEY,
  EMPTY_ROLL,
  EMPTY_SIGN_UP,
  SIGN_UP_SECRETS,
  type TKeyField,
  type TKeyValues,
  type TPlanField,
  type TPlanFormState,
  type TPlanValues,
  type TRollField,
  type TRollValues,
  type TSignUpField,
  type TSignUpState,
  type TSignUpValues,
} from '@/lib/portal-form-fields';
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

export type { TNewPasswordState, TPlanFormState, TResetState, TSignInState, TSignUpState };

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

/**
 * "Add a passkey" on the account page, first step: the developer confirms it is them (the
 * password, or one of their passkeys), then the options (a challenge).
 */
export const addPasskeyOptions = async (confirmation: unknown): Promise<TAddPasskeyStart> => {
  const developer = await requireDeveloper();
  const answer = await startAddingPasskey(developer.apiKey, confirmation);
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

export const askForReset = async (_previous: TResetState, data: FormData): Promise<TResetState> =>
  askForResetLink(data);

export const setNewPassword = async (
  _previous: TNewPasswordState,
  data: FormData,
): Promise<TNewPasswordState> => setPasswordIn('developers', data);

// --- Sign up and verify ---------------------------------------------------------------------

const SIGN_UP_FORM: TPortalForm<TSignUpField, TSignUpValues, TSignUpInput> = {
  empty: EMPTY_SIGN_UP,
  secrets: SIGN_UP_SECRETS,
  check: checkSignUp,
  words: {
    refused: 'That account cannot be made.',
    notFound: 'That account cannot be made.',
    form: SIGN_UP_WORDS,
  },
};

/**
 * Signs a developer and their organisation up (the API sends the verify email), then signs them
 * in, so the dashboard says "check your email". Each visitor may sign up SIGN-UP times an hour.
 * A refusal comes back under its field, with what was typed but the password.
 */
export const signUp = async (_previous: TSignUpState, data: FormData): Promise<TSignUpState> => {
  const read = readPortalForm(data, SIGN_UP_FORM);
  if (!read.ok) {
    return read.state;
  }
  const { values, input } = read;
  const visitor = await currentVisitor();
  const allowed = await visitorLimits().consume('sign-up', visitor.key);
  if (!allowed.ok) {
    return refusedPortalForm(values, SIGN_UP_FORM, {
      fieldErrors: {},
      formError: 'Several accounts were signed up from here already. Please try again in an hour.',
    });
  }
  const answer = await signUpDeveloper(input);
  if (!answer.ok) {
    const failure = answer.failure;
    if (failure.kind !== 'refused' && failure.kind !== 'invalid') {
      // Nothing was made: the attempt does not count against the visitor.
      await visitorLimits().reward('sign-up', visitor.key);
    }
    // The site's own key refused (401) is no session of the visitor's to end: "can't reach".
    const refusal = portalRefusal(
      failure.kind === 'signed-out' ? { kind: 'unavailable' } : failure,
      SIGN_UP_FORM.words,
    );
    return refusedPortalForm(values, SIGN_UP_FORM, refusal);
  }
  const error = await startSessionIn('developers', input.email, input.password);
  redirect(error ? '/developers/sign-in?signed-up=1' : '/developers?welcome=1');
};

export type TVerifyState = { error?: string };

/**
 * Verifies the address of a verify link's token. Opening the link only shows a button: this POST
 * verifies, so a mail scanner that follows links verifies nothing. The link works once: pressed
 * again by a developer whose address is confirmed (a second tab, a double click), it goes to the
 * dashboard rather than saying the link is used.
 */
export const confirmEmail = async (
  _previous: TVerifyState,
  data: FormData,
): Promise<TVerifyState> => {
  const answer = await verifyEmail(textOf(data, 'token').slice(0, 200));
  if (!answer.ok && (await currentDeveloper())?.emailVerified) {
    redirect('/developers?verified=1');
  }
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

/** The key just issued (its plaintext, this once), or what went wrong. */
type TIssued = { issued?: TIssuedOrgKey };

/** Create a key: the form's fields, and the key once the API has made it. */
export type TKeyFormState = TCheckedFormState<TKeyField, TKeyValues> & TIssued;
/** Roll a key: the overlap chosen, and the key's new secret once the API has made it. */
export type TRollFormState = TCheckedFormState<TRollField, TRollValues> & TIssued;
/** Revoke a key: a button, so a refusal of the whole form only. */
export type TRevokeFormState = { error?: string };

const KEY_ID = /^[1-9][0-9]{0,17}$/;

const KEY_REFUSALS = {
  refused: 'That key cannot be changed.',
  notFound: 'There is no such key in your organisation.',
  // The key of the page's address: expired or revoked meanwhile.
  whole: { keyId: 'This key was revoked or has expired: create a new key instead.' },
};

const keyFailure = (failure: TSiteFailure): string => portalActionFailure(failure, KEY_REFUSALS);

const KEY_FORM: TPortalForm<TKeyField, TKeyValues, TCreateOrgKey> = {
  empty: EMPTY_KEY,
  check: (values) => checkKey(values),
  words: { ...KEY_REFUSALS, form: KEY_WORDS },
};

/** Creates a key; the answer (this POST's page) shows it once, and it is never sent again. */
export const createKey = async (
  _previous: TKeyFormState,
  data: FormData,
): Promise<TKeyFormState> => {
  const developer = await requireDeveloper();
  const answer = await sendPortalForm(data, KEY_FORM, (input) =>
    createOrgKey(developer.apiKey, input),
  );
  if (!answer.ok) {
    return answer.state;
  }
  revalidatePath('/developers/keys');
  return { values: EMPTY_KEY, fieldErrors: {}, issued: answer.data };
};

const ROLL_FORM: TPortalForm<TRollField, TRollValues, number> = {
  empty: EMPTY_ROLL,
  check: checkRoll,
  words: { ...KEY_REFUSALS, form: ROLL_WORDS },
};

/** Gives a key a new secret, shown once; the old one works for the overlap chosen. */
export const rollKey = async (
  _previous: TRollFormState,
  data: FormData,
): Promise<TRollFormState> => {
  const developer = await requireDeveloper();
  const id = textOf(data, 'id');
  if (!KEY_ID.test(id)) {
    return { values: EMPTY_ROLL, fieldErrors: {}, formError: KEY_REFUSALS.notFound };
  }
  const answer = await sendPortalForm(data, ROLL_FORM, (overlapHours) =>
    rollOrgKey(developer.apiKey, id, overlapHours),
  );
  if (!answer.ok) {
    return answer.state;
  }
  revalidatePath('/developers/keys');
  return { values: answer.values, fieldErrors: {}, issued: answer.data };
};

/** Revokes a key: both its secrets stop working within seconds. */
export const revokeKey = async (
  _previous: TRevokeFormState,
  data: FormData,
): Promise<TRevokeFormState> => {
  const developer = await requireDeveloper();
  const id = textOf(data, 'id');
  if (!KEY_ID.test(id)) {
    return { error: KEY_REFUSALS.notFound };
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

const PLAN_FORM: TPortalForm<TPlanField, TPlanValues, TRequestPlanChange> = {
  empty: { plan: '', message: '' },
  check: checkPlan,
  words: {
    refused: 'Your request could not be sent.',
    notFound: 'Your organisation no longer exists.',
    form: PLAN_WORDS,
  },
};

/** Asks staff for another plan; the page then shows the request as pending. */
export const requestPlan = async (
  _previous: TPlanFormState,
  data: FormData,
): Promise<TPlanFormState> => {
  const developer = await requireDeveloper();
  const answer = await sendPortalForm(data, PLAN_FORM, (input) =>
    requestPlanChange(developer.apiKey, input),
  );
  if (!answer.ok) {
    return answer.state;
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
