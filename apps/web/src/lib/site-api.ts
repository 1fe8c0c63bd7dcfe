import 'server-only';
import {
  type TErrorCode,
  type TErrorDetail,
  type TNewWebhookEndpoint,
  ZError,
} from '@pets/contract';
import type {
  TCreateOrgKey,
  TDecidePlanRequest,
  TListAuditQuery,
  TPasskeyAssertion,
  TPasskeyConfirmation,
  TPasskeyRegistration,
  TPlanRequestStatus,
  TRequestPlanChange,
  TSaveSearchRequest,
  TSignInArea,
} from '@pets/contract/site';
import { webConfig } from '../env';
import { callSiteApi, fetchOptions, rateLimitedFor, type TCredential } from './api-client';
import type { TApiFailure, TResult } from './api-result';
import { currentVisitor, visitorHeaders, vouchedVisitorHeaders } from './visitor';

/**
 * The site's calls to the site-only contract (`/internal`, `@pets/contract/site`): people's
 * sign-in, sessions, accounts and the team. Visitor operations go out with the site's own key;
 * account operations with the person's session credential, the site's key beside it as the voucher
 * (lib/visitor.ts). The credential arrives as an argument from session.ts and leaves only in the
 * Authorization header. No call here sends an Idempotency-Key: a replayed sign-in answer would hand
 * out a credential twice.
 */

/**
 * What the person is told about: the credential no longer works (401: sign in again), a refusal
 * with the API's own words (403, a used or expired link's 400), or too many attempts (429).
 */
export type TSiteFailure =
  | TApiFailure
  | { kind: 'signed-out'; message: string }
  | {
      kind: 'refused';
      status: 400 | 403 | 404 | 409;
      message: string;
      code?: TErrorCode;
      /** A 400's fields and what is wrong with each: for the form's words under its fields. */
      details?: TErrorDetail[];
    }
  | { kind: 'throttled'; retryAfterSeconds: number; message?: string };
export type TSiteResult<T> = TResult<T, TSiteFailure>;

const messageOf = (body: unknown): string => {
  const error = ZError.safeParse(body);
  return error.success ? error.data.message : '';
};

const codeOf = (body: unknown): TErrorCode | undefined => {
  const error = ZError.safeParse(body);
  return error.success ? error.data.code : undefined;
};

const detailsOf = (body: unknown): TErrorDetail[] | undefined => {
  const error = ZError.safeParse(body);
  return error.success ? error.data.details : undefined;
};

const siteFailureOf = (response: { status: number; body: unknown; headers: Headers }) => {
  switch (response.status) {
    case 401:
      return { kind: 'signed-out' as const, message: messageOf(response.body) };
    case 400:
      return {
        kind: 'refused' as const,
        status: response.status,
        message: messageOf(response.body),
        details: detailsOf(response.body),
      };
    case 403:
    case 404:
    case 409:
      return {
        kind: 'refused' as const,
        status: response.status,
        message: messageOf(response.body),
        code: codeOf(response.body),
      };
    case 429:
      return {
        kind: 'throttled' as const,
        retryAfterSeconds: rateLimitedFor(response),
        message: messageOf(response.body),
      };
    default:
      return undefined;
  }
};

/** The site's own key, for the operations anyone at the site may ask for (sign in, reset...). */
export const visitorCredential = async (): Promise<TCredential<TSiteFailure>> => ({
  apiKey: webConfig().apiKey,
  headers: visitorHeaders(await currentVisitor()),
  logPrefix: 'site ',
  failureOf: (_operation, response) => siteFailureOf(response),
});

/** A person's session credential, vouched for by the site's key. */
const accountCredential = async (credential: string): Promise<TCredential<TSiteFailure>> => ({
  apiKey: credential,
  headers: vouchedVisitorHeaders(await currentVisitor()),
  logPrefix: 'account ',
  failureOf: (_operation, response) => siteFailureOf(response),
});

type TSignIn = {
  area: TSignInArea;
  email: string;
  password: string;
  idleSeconds: number;
  userAgent?: string;
  deviceToken?: string;
};

export const signInWithPassword = async (input: TSignIn) =>
  callSiteApi(
    'signIn',
    await visitorCredential(),
    (client) => client.auth.signIn({ body: input, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

/** Options for signing in with a passkey: the API keeps their challenge 5 minutes, for one use. */
export const passkeySignInOptions = async () =>
  callSiteApi(
    'passkeyOptions',
    await visitorCredential(),
    (client) => client.auth.passkeyOptions({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.options : undefined),
  );

export const signInWithPasskey = async (input: {
  area: TSignInArea;
  response: TPasskeyAssertion;
  idleSeconds: number;
  userAgent?: string;
}) =>
  callSiteApi(
    'passkeySignIn',
    await visitorCredential(),
    (client) => client.auth.passkeySignIn({ body: input, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const requestPasswordReset = async (email: string) =>
  callSiteApi(
    'requestReset',
    await visitorCredential(),
    (client) => client.auth.requestReset({ body: { email }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 202 ? response.body : undefined),
  );

export const resetPassword = async (token: string, password: string) =>
  callSiteApi(
    'resetPassword',
    await visitorCredential(),
    (client) =>
      client.auth.resetPassword({ body: { token, password }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const acceptInvite = async (token: string, name: string, password: string) =>
  callSiteApi(
    'acceptInvite',
    await visitorCredential(),
    (client) =>
      client.auth.acceptInvite({ body: { token, name, password }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const getSession = async (credential: string) =>
  callSiteApi(
    'getSession',
    await accountCredential(credential),
    (client) => client.session.getSession({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const signOutSession = async (credential: string) =>
  callSiteApi(
    'signOut',
    await accountCredential(credential),
    (client) => client.session.signOut({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 204 ? true : undefined),
  );

export const listSessions = async (credential: string) =>
  callSiteApi(
    'listSessions',
    await accountCredential(credential),
    (client) => client.account.listSessions({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.sessions : undefined),
  );

export const revokeSession = async (credential: string, id: string) =>
  callSiteApi(
    'revokeSession',
    await accountCredential(credential),
    (client) =>
      client.account.revokeSession({
        params: { id },

        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 204 ? true : undefined),
  );

export const revokeAllSessions = async (credential: string) =>
  callSiteApi(
    'revokeAllSessions',
    await accountCredential(credential),
    (client) => client.account.revokeAllSessions({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const changePassword = async (
  credential: string,
  currentPassword: string,
  newPassword: string,
) =>
  callSiteApi(
    'changePassword',
    await accountCredential(credential),
    (client) =>
      client.account.changePassword({
        body: { currentPassword, newPassword },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 204 ? true : undefined),
  );

export const listPasskeys = async (credential: string) =>
  callSiteApi(
    'listPasskeys',
    await accountCredential(credential),
    (client) => client.account.listPasskeys({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.passkeys : undefined),
  );

/** Options for adding a passkey to the person's account (a challenge bound to it). */
export const passkeyRegistrationOptions = async (
  credential: string,
  confirmation: TPasskeyConfirmation,
) =>
  callSiteApi(
    'passkeyRegistrationOptions',
    await accountCredential(credential),
    (client) =>
      client.account.passkeyRegistrationOptions({
        body: confirmation,
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body.options : undefined),
  );

export const addPasskey = async (
  credential: string,
  response: TPasskeyRegistration,
  name: string | undefined,
) =>
  callSiteApi(
    'addPasskey',
    await accountCredential(credential),
    (client) =>
      client.account.addPasskey({
        body: { response, ...(name ? { name } : {}) },
        fetchOptions: fetchOptions(),
      }),
    (answer) => (answer.status === 201 ? answer.body.passkey : undefined),
  );

export const deletePasskey = async (credential: string, id: string) =>
  callSiteApi(
    'deletePasskey',
    await accountCredential(credential),
    (client) => client.account.deletePasskey({ params: { id }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 204 ? true : undefined),
  );

export const renamePasskey = async (credential: string, id: string, name: string) =>
  callSiteApi(
    'renamePasskey',
    await accountCredential(credential),
    (client) =>
      client.account.renamePasskey({
        params: { id },
        body: { name },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body.passkey : undefined),
  );

export const listTeam = async (credential: string) =>
  callSiteApi(
    'listAccounts',
    await accountCredential(credential),
    (client) => client.team.listAccounts({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.accounts : undefined),
  );

export const inviteToTeam = async (
  credential: string,
  body: { email: string; name: string; role: 'admin' | 'staff' },
) =>
  callSiteApi(
    'inviteAccount',
    await accountCredential(credential),
    (client) => client.team.inviteAccount({ body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 201 ? response.body.account : undefined),
  );

export const changeTeamRole = async (credential: string, id: string, role: 'admin' | 'staff') =>
  callSiteApi(
    'changeRole',
    await accountCredential(credential),
    (client) =>
      client.team.changeRole({ params: { id }, body: { role }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.account : undefined),
  );

export const setTeamMemberActive = async (credential: string, id: string, isActive: boolean) =>
  callSiteApi(
    isActive ? 'reactivate' : 'deactivate',
    await accountCredential(credential),
    (client) =>
      isActive
        ? client.team.reactivate({ params: { id }, fetchOptions: fetchOptions() })
        : client.team.deactivate({ params: { id }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.account : undefined),
  );

/** The audit page's filters: the contract's query, its page size set here. */
export type TAuditQuery = Omit<TListAuditQuery, 'limit'>;

export const listAuditLog = async (credential: string, query: TAuditQuery) =>
  callSiteApi(
    'listAudit',
    await accountCredential(credential),
    (client) =>
      client.audit.listAudit({ query: { ...query, limit: 50 }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

// --- The developer portal ----------------------------------------------------------------------

type TSignUp = { email: string; password: string; name: string; organizationName: string };

export const signUpDeveloper = async (body: TSignUp) =>
  callSiteApi(
    'signUp',
    await visitorCredential(),
    (client) => client.auth.signUp({ body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 201 ? response.body.account : undefined),
  );

export const verifyEmail = async (token: string) =>
  callSiteApi(
    'verifyEmail',
    await visitorCredential(),
    (client) => client.auth.verifyEmail({ body: { token }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.account : undefined),
  );

export const resendVerifyEmail = async (credential: string) =>
  callSiteApi(
    'resendVerification',
    await accountCredential(credential),
    (client) => client.account.resendVerification({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 202 ? true : undefined),
  );

export const getOrganization = async (credential: string) =>
  callSiteApi(
    'getOrganization',
    await accountCredential(credential),
    (client) => client.org.getOrganization({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const listOrgKeys = async (credential: string) =>
  callSiteApi(
    'listOrgKeys',
    await accountCredential(credential),
    (client) => client.org.listOrgKeys({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.keys : undefined),
  );

export const createOrgKey = async (credential: string, body: TCreateOrgKey) =>
  callSiteApi(
    'createOrgKey',
    await accountCredential(credential),
    (client) => client.org.createOrgKey({ body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

/** The API reference's key: a new one for the hour, the ones made before revoked. */
export const createReferenceKey = async (credential: string) =>
  callSiteApi(
    'createReferenceKey',
    await accountCredential(credential),
    (client) => client.org.createReferenceKey({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

export const revokeOrgKey = async (credential: string, keyId: string) =>
  callSiteApi(
    'revokeOrgKey',
    await accountCredential(credential),
    (client) => client.org.revokeOrgKey({ params: { keyId }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.apiKey : undefined),
  );

export const rollOrgKey = async (credential: string, keyId: string, overlapHours: number) =>
  callSiteApi(
    'rollOrgKey',
    await accountCredential(credential),
    (client) =>
      client.org.rollOrgKey({
        params: { keyId },
        body: { overlapHours },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const getOrgUsageNow = async (credential: string) =>
  callSiteApi(
    'getOrgUsageNow',
    await accountCredential(credential),
    (client) => client.org.getOrgUsageNow({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const getKeyUsage = async (credential: string, keyId: string, days = 30) =>
  callSiteApi(
    'getKeyUsage',
    await accountCredential(credential),
    (client) =>
      client.org.getKeyUsage({ params: { keyId }, query: { days }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

export const listKeyWebhooks = async (credential: string, keyId: string) =>
  callSiteApi(
    'listKeyWebhooks',
    await accountCredential(credential),
    (client) =>
      client.orgWebhooks.listKeyWebhooks({ params: { keyId }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.endpoints : undefined),
  );

export const createKeyWebhook = async (
  credential: string,
  keyId: string,
  body: TNewWebhookEndpoint,
) =>
  callSiteApi(
    'createKeyWebhook',
    await accountCredential(credential),
    (client) =>
      client.orgWebhooks.createKeyWebhook({
        params: { keyId },
        body,
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 201 ? response.body : undefined),
  );

export const testKeyWebhook = async (credential: string, keyId: string, endpointId: string) =>
  callSiteApi(
    'testKeyWebhook',
    await accountCredential(credential),
    (client) =>
      client.orgWebhooks.testKeyWebhook({
        params: { keyId, endpointId },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 202 ? response.body : undefined),
  );

export const listKeyWebhookDeliveries = async (
  credential: string,
  keyId: string,
  endpointId: string,
) =>
  callSiteApi(
    'listKeyWebhookDeliveries',
    await accountCredential(credential),
    (client) =>
      client.orgWebhooks.listKeyWebhookDeliveries({
        params: { keyId, endpointId },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body.deliveries : undefined),
  );

// --- Saved searches (issue 28) -----------------------------------------------------------------

/** Saves a search, unconfirmed: the API emails the confirmation link. */
export const saveSearch = async (body: TSaveSearchRequest) =>
  callSiteApi(
    'saveSearch',
    await visitorCredential(),
    (client) => client.savedSearches.saveSearch({ body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 202 ? true : undefined),
  );

export const confirmSavedSearch = async (token: string) =>
  callSiteApi(
    'confirmSearch',
    await visitorCredential(),
    (client) =>
      client.savedSearches.confirmSearch({ body: { token }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.filter : undefined),
  );

export const unsubscribeSavedSearch = async (token: string) =>
  callSiteApi(
    'unsubscribeSearch',
    await visitorCredential(),
    (client) =>
      client.savedSearches.unsubscribeSearch({ body: { token }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.filter : undefined),
  );

/** Staff: how many confirmed searches wait for each filter. */
export const listWaitingSearches = async (credential: string) =>
  callSiteApi(
    'listWaiting',
    await accountCredential(credential),
    (client) => client.savedSearches.listWaiting({ fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body : undefined),
  );

// --- Plans: the developer's request, the back office's decision -------------------------------

export const requestPlanChange = async (credential: string, body: TRequestPlanChange) =>
  callSiteApi(
    'requestPlanChange',
    await accountCredential(credential),
    (client) => client.org.requestPlanChange({ body, fetchOptions: fetchOptions() }),
    (response) => (response.status === 201 ? response.body.request : undefined),
  );

export const withdrawPlanChange = async (credential: string, requestId: string) =>
  callSiteApi(
    'withdrawPlanChange',
    await accountCredential(credential),
    (client) =>
      client.org.withdrawPlanChange({ params: { requestId }, fetchOptions: fetchOptions() }),
    (response) => (response.status === 200 ? response.body.request : undefined),
  );

export const listPlanRequests = async (credential: string, status: TPlanRequestStatus) =>
  callSiteApi(
    'listPlanRequests',
    await accountCredential(credential),
    (client) =>
      client.plans.listPlanRequests({
        query: { status, limit: 100 },
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body.requests : undefined),
  );

export const decidePlanRequest = async (
  credential: string,
  requestId: string,
  body: TDecidePlanRequest,
) =>
  callSiteApi(
    'decidePlanRequest',
    await accountCredential(credential),
    (client) =>
      client.plans.decidePlanRequest({
        params: { requestId },
        body,
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body.request : undefined),
  );

export const setOrganizationLimits = async (
  credential: string,
  organizationId: string,
  limits: { rpm: number; rpd: number },
) =>
  callSiteApi(
    'setOrganizationLimits',
    await accountCredential(credential),
    (client) =>
      client.plans.setOrganizationLimits({
        params: { organizationId },
        body: limits,
        fetchOptions: fetchOptions(),
      }),
    (response) => (response.status === 200 ? response.body.organization : undefined),
  );
