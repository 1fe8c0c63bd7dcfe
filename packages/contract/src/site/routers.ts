import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import type { TRouteMetadata, TSiteAccess } from '../routers/metadata';
import { ZEmailAddress } from '../schemas/common';
import { type TError, ZError as ZErrorBody } from '../schemas/error';
import { ZOrder } from '../schemas/order';
import { ZOrderLinkLookup } from '../schemas/order-link';
import {
  ZNewWebhookEndpoint,
  ZWebhookDeliveries,
  ZWebhookDelivery,
  ZWebhookEndpointParams,
  ZWebhookEndpoints,
  ZWebhookEndpointWithSecret,
} from '../schemas/webhook';
import {
  MAX_PLAN_REQUESTS_PER_DAY,
  ZAccountRole,
  ZAccountToken,
  ZAuditEntry,
  ZCreateOrgKey,
  ZCurrentSession,
  ZDecidePlanRequest,
  ZIssuedOrgKey,
  ZKeyUsage,
  ZListAuditQuery,
  ZListPlanRequestsQuery,
  ZOrganization,
  ZOrganizationLimits,
  ZOrganizationPlan,
  ZOrgKey,
  ZOrgUsageNow,
  ZPasskey,
  ZPasskeyConfirmation,
  ZPasskeyName,
  ZPasskeyOptions,
  ZPasskeyRegistration,
  ZPasskeySignInRequest,
  ZPassword,
  ZPasswordAttempt,
  ZPersonName,
  ZPlanRequest,
  ZRequestPlanChange,
  ZRollOrgKey,
  ZSavedSearchAnswer,
  ZSavedSearchToken,
  ZSavedSearchWaiting,
  ZSaveSearchRequest,
  ZSignInRequest,
  ZSignInResponse,
  ZSignUpRequest,
  ZSiteAccount,
  ZSiteSession,
} from './schemas';

const c = initContract();

/**
 * The error body, under a named type: inferred, its code enum is written out for every response
 * of every route, and the contract's type grows past what the compiler can write out.
 */
const ZError: z.ZodType<TError> = ZErrorBody;

const access = (siteAccess: TSiteAccess) => ({ siteAccess }) satisfies TRouteMetadata;
const VISITOR = access('visitor');
const ANY_ACCOUNT = access({ account: ['admin', 'staff', 'developer'] });
const ADMIN = access({ account: ['admin'] });
const DEVELOPER = access({ account: ['developer'] });
const STAFF = access({ account: ['admin', 'staff'] });

const ZAccountId = z.object({ id: z.string().regex(/^[1-9][0-9]{0,17}$/) });
const ZMessage = z.object({ message: z.string() });

/** Anyone at the site (the bearer is the site's own first-party key). */
export const authRouter = c.router({
  signUp: {
    method: 'POST',
    path: '/auth/sign-up',
    summary: 'Sign up a developer and their organisation; sends the verify email',
    body: ZSignUpRequest,
    responses: { 201: z.object({ account: ZSiteAccount }), 409: ZError },
    metadata: VISITOR,
  },
  verifyEmail: {
    method: 'POST',
    path: '/auth/verify',
    summary: "Verify an account's email address with the token of its email",
    body: z.object({ token: ZAccountToken }),
    responses: { 200: z.object({ account: ZSiteAccount }) },
    metadata: VISITOR,
  },
  signIn: {
    method: 'POST',
    path: '/auth/sign-in',
    summary: 'Sign in with email and password: a new session and its credential',
    body: ZSignInRequest,
    responses: { 200: ZSignInResponse, 403: ZError },
    metadata: VISITOR,
  },
  passkeyOptions: {
    method: 'POST',
    path: '/auth/passkey/options',
    summary: 'Options for signing in with a passkey: a challenge kept 5 minutes, for one answer',
    body: c.noBody(),
    responses: { 200: z.object({ options: ZPasskeyOptions }) },
    metadata: VISITOR,
  },
  passkeySignIn: {
    method: 'POST',
    path: '/auth/passkey',
    summary: "Sign in with a passkey's signed answer: a new session, as signIn makes",
    body: ZPasskeySignInRequest,
    responses: { 200: ZSignInResponse, 403: ZError },
    metadata: VISITOR,
  },
  requestReset: {
    method: 'POST',
    path: '/auth/reset-request',
    summary: 'Email a password reset link, if an account has this address',
    body: z.object({ email: ZEmailAddress }),
    responses: { 202: ZMessage },
    metadata: VISITOR,
  },
  resetPassword: {
    method: 'POST',
    path: '/auth/reset',
    summary:
      "Set a new password with a reset link's token; ends every session and removes every passkey",
    body: z.object({ token: ZAccountToken, password: ZPassword }),
    responses: { 200: z.object({ account: ZSiteAccount }) },
    metadata: VISITOR,
  },
  acceptInvite: {
    method: 'POST',
    path: '/auth/invite',
    summary: "Accept an invitation: the person's name and password",
    body: z.object({ token: ZAccountToken, name: ZPersonName, password: ZPassword }),
    responses: { 200: z.object({ account: ZSiteAccount }) },
    metadata: VISITOR,
  },
});

/** The signed-in person's own session. */
export const sessionRouter = c.router({
  getSession: {
    method: 'GET',
    path: '/session',
    summary: 'The session of the credential, and its account',
    responses: { 200: ZCurrentSession },
    metadata: ANY_ACCOUNT,
  },
  signOut: {
    method: 'POST',
    path: '/session/sign-out',
    summary: 'End this session; its credential stops working at once',
    body: c.noBody(),
    responses: { 204: c.noBody() },
    metadata: ANY_ACCOUNT,
  },
});

/** The signed-in person's account. */
export const accountRouter = c.router({
  listSessions: {
    method: 'GET',
    path: '/account/sessions',
    summary: "The account's open sessions, newest first",
    responses: { 200: z.object({ sessions: z.array(ZSiteSession) }) },
    metadata: ANY_ACCOUNT,
  },
  revokeSession: {
    method: 'POST',
    path: '/account/sessions/:id/revoke',
    summary: 'End one of the account’s sessions',
    pathParams: ZAccountId,
    body: c.noBody(),
    responses: { 204: c.noBody(), 404: ZError },
    metadata: ANY_ACCOUNT,
  },
  revokeAllSessions: {
    method: 'POST',
    path: '/account/sessions/revoke-all',
    summary: 'Sign out everywhere: end every session of the account, this one included',
    body: c.noBody(),
    responses: { 200: z.object({ ended: z.number().int() }) },
    metadata: ANY_ACCOUNT,
  },
  changePassword: {
    method: 'POST',
    path: '/account/password',
    summary: 'Change the password; every other session ends and every passkey is removed',
    body: z.object({ currentPassword: ZPasswordAttempt, newPassword: ZPassword }),
    responses: { 204: c.noBody(), 403: ZError },
    metadata: ANY_ACCOUNT,
  },
  listPasskeys: {
    method: 'GET',
    path: '/account/passkeys',
    summary: "The account's passkeys, oldest first",
    responses: { 200: z.object({ passkeys: z.array(ZPasskey) }) },
    metadata: ANY_ACCOUNT,
  },
  passkeyRegistrationOptions: {
    method: 'POST',
    path: '/account/passkeys/options',
    summary:
      'Options for adding a passkey, once the person confirmed it is them (the password, or one of their passkeys): a challenge kept 5 minutes, for one answer',
    body: ZPasskeyConfirmation,
    responses: { 200: z.object({ options: ZPasskeyOptions }), 403: ZError },
    metadata: ANY_ACCOUNT,
  },
  addPasskey: {
    method: 'POST',
    path: '/account/passkeys',
    summary:
      "Add a passkey from the browser's answer to the registration options; the account's owner is emailed",
    body: z.object({ response: ZPasskeyRegistration, name: ZPasskeyName.optional() }),
    responses: { 201: z.object({ passkey: ZPasskey }) },
    metadata: ANY_ACCOUNT,
  },
  deletePasskey: {
    method: 'POST',
    path: '/account/passkeys/:id/delete',
    summary: 'Remove one of the account’s passkeys: it no longer signs in',
    pathParams: ZAccountId,
    body: c.noBody(),
    responses: { 204: c.noBody(), 404: ZError },
    metadata: ANY_ACCOUNT,
  },
  renamePasskey: {
    method: 'POST',
    path: '/account/passkeys/:id/rename',
    summary: 'Give one of the account’s passkeys another name',
    pathParams: ZAccountId,
    body: z.object({ name: ZPasskeyName }),
    responses: { 200: z.object({ passkey: ZPasskey }), 404: ZError },
    metadata: ANY_ACCOUNT,
  },
  resendVerification: {
    method: 'POST',
    path: '/account/verify/resend',
    summary: 'Send the verify email again, if the address is not confirmed yet (a few an hour)',
    body: c.noBody(),
    responses: { 202: ZMessage },
    metadata: DEVELOPER,
  },
});

/** Admins: the staff team. */
export const teamRouter = c.router({
  listAccounts: {
    method: 'GET',
    path: '/team',
    summary: 'The staff and admin accounts',
    responses: { 200: z.object({ accounts: z.array(ZSiteAccount) }) },
    metadata: ADMIN,
  },
  inviteAccount: {
    method: 'POST',
    path: '/team/invitations',
    summary: 'Invite a person by email as staff or admin',
    body: z.object({
      email: ZEmailAddress,
      name: ZPersonName,
      role: ZAccountRole.extract(['admin', 'staff']),
    }),
    responses: { 201: z.object({ account: ZSiteAccount }), 409: ZError },
    metadata: ADMIN,
  },
  resendInvite: {
    method: 'POST',
    path: '/team/:id/resend-invite',
    summary: 'Send the invitation again; older invite links stop working',
    pathParams: ZAccountId,
    body: c.noBody(),
    responses: { 200: z.object({ account: ZSiteAccount }), 404: ZError, 409: ZError },
    metadata: ADMIN,
  },
  changeRole: {
    method: 'POST',
    path: '/team/:id/role',
    summary: "Change a person's role (staff or admin)",
    pathParams: ZAccountId,
    body: z.object({ role: ZAccountRole.extract(['admin', 'staff']) }),
    responses: { 200: z.object({ account: ZSiteAccount }), 403: ZError, 404: ZError },
    metadata: ADMIN,
  },
  deactivate: {
    method: 'POST',
    path: '/team/:id/deactivate',
    summary: 'Deactivate an account: its sessions end and it cannot sign in',
    pathParams: ZAccountId,
    body: c.noBody(),
    responses: { 200: z.object({ account: ZSiteAccount }), 403: ZError, 404: ZError },
    metadata: ADMIN,
  },
  reactivate: {
    method: 'POST',
    path: '/team/:id/reactivate',
    summary: 'Let a deactivated account sign in again',
    pathParams: ZAccountId,
    body: c.noBody(),
    responses: { 200: z.object({ account: ZSiteAccount }), 404: ZError },
    metadata: ADMIN,
  },
});

/** Admins: the audit log. */
export const auditRouter = c.router({
  listAudit: {
    method: 'GET',
    path: '/audit',
    summary: 'The audit log, newest first, filtered by person, action, target and days',
    query: ZListAuditQuery,
    responses: {
      200: z.object({ entries: z.array(ZAuditEntry), nextBefore: z.string().nullable() }),
    },
    metadata: ADMIN,
  },
});

const ZKeyIdParam = z.object({ keyId: z.string().regex(/^[1-9][0-9]{0,17}$/) });

/**
 * Developers: their organisation's keys and usage (the developer portal). Every operation is
 * scoped to the person's organisation: another organisation's key id is 404.
 */
export const orgRouter = c.router({
  getOrganization: {
    method: 'GET',
    path: '/org',
    summary: "The developer's organisation: its plan, the limits of its keys, its plan request",
    responses: { 200: ZOrganization },
    metadata: DEVELOPER,
  },
  listOrgKeys: {
    method: 'GET',
    path: '/org/keys',
    summary: "The organisation's keys, newest first (never the keys themselves)",
    responses: { 200: z.object({ keys: z.array(ZOrgKey) }) },
    metadata: DEVELOPER,
  },
  createOrgKey: {
    method: 'POST',
    path: '/org/keys',
    summary: 'Create a key; the answer holds it in plain text, the only time it is shown',
    body: ZCreateOrgKey,
    responses: { 201: ZIssuedOrgKey },
    metadata: DEVELOPER,
  },
  createReferenceKey: {
    method: 'POST',
    path: '/org/keys/reference',
    summary:
      'A test, read-only key for the API reference, working for an hour; the ones made before stop',
    body: c.noBody(),
    responses: { 201: ZIssuedOrgKey },
    metadata: DEVELOPER,
  },
  revokeOrgKey: {
    method: 'POST',
    path: '/org/keys/:keyId/revoke',
    summary: 'Revoke a key: both its secrets stop working',
    pathParams: ZKeyIdParam,
    body: c.noBody(),
    responses: { 200: z.object({ apiKey: ZOrgKey }) },
    metadata: DEVELOPER,
  },
  rollOrgKey: {
    method: 'POST',
    path: '/org/keys/:keyId/roll',
    summary: 'Give a key a new secret, shown once; the old one works for the overlap',
    pathParams: ZKeyIdParam,
    body: ZRollOrgKey,
    responses: { 200: ZIssuedOrgKey },
    metadata: DEVELOPER,
  },
  getKeyUsage: {
    method: 'GET',
    path: '/org/keys/:keyId/usage',
    summary: "A key's requests per hour and per UTC day, by status class",
    pathParams: ZKeyIdParam,
    query: z.object({ days: z.coerce.number().int().min(1).max(30).default(30) }),
    responses: { 200: ZKeyUsage },
    metadata: DEVELOPER,
  },
  getOrgUsageNow: {
    method: 'GET',
    path: '/org/usage/now',
    summary: "Each key's requests in its current minute and day windows, against the plan",
    responses: { 200: ZOrgUsageNow },
    metadata: DEVELOPER,
  },
  requestPlanChange: {
    method: 'POST',
    path: '/org/plan-requests',
    summary: `Ask staff for another plan; one request may be pending at a time (409 otherwise), and an organisation may ask ${MAX_PLAN_REQUESTS_PER_DAY} times in 24 hours (403 after)`,
    body: ZRequestPlanChange,
    responses: { 201: z.object({ request: ZPlanRequest }), 409: ZError },
    metadata: DEVELOPER,
  },
  withdrawPlanChange: {
    method: 'POST',
    path: '/org/plan-requests/:requestId/withdraw',
    summary: 'Withdraw the pending plan request before staff decide it',
    pathParams: z.object({ requestId: z.string().regex(/^[1-9][0-9]{0,17}$/) }),
    body: c.noBody(),
    responses: { 200: z.object({ request: ZPlanRequest }), 409: ZError },
    metadata: DEVELOPER,
  },
});

const ZRequestIdParam = z.object({ requestId: z.string().regex(/^[1-9][0-9]{0,17}$/) });

/**
 * Developers' plan requests in the back office (issue 27, §4.5): staff and admins read them; only
 * admins decide them and set an organisation's limits (a staff member's call is a 403).
 */
export const plansRouter = c.router({
  listPlanRequests: {
    method: 'GET',
    path: '/plans/requests',
    summary: 'Plan requests of one status (pending by default): pending oldest first, else newest',
    query: ZListPlanRequestsQuery,
    responses: { 200: z.object({ requests: z.array(ZPlanRequest) }) },
    metadata: STAFF,
  },
  decidePlanRequest: {
    method: 'POST',
    path: '/plans/requests/:requestId/decide',
    summary:
      'Approve (the plan applies within seconds) or decline a pending request; the developer is emailed',
    pathParams: ZRequestIdParam,
    body: ZDecidePlanRequest,
    responses: { 200: z.object({ request: ZPlanRequest }), 403: ZError, 409: ZError },
    metadata: ADMIN,
  },
  setOrganizationLimits: {
    method: 'POST',
    path: '/plans/organizations/:organizationId/limits',
    summary: "Set an Enterprise organisation's limits (rpm, rpd); its keys get them within seconds",
    pathParams: z.object({ organizationId: z.string().regex(/^[1-9][0-9]{0,17}$/) }),
    body: ZOrganizationLimits,
    responses: { 200: z.object({ organization: ZOrganizationPlan }), 403: ZError },
    metadata: ADMIN,
  },
});

const ZKeyEndpointParams = ZKeyIdParam.merge(ZWebhookEndpointParams);

/**
 * Developers: the webhook endpoints of their organisation's keys (the portal's Webhooks page). An
 * endpoint belongs to the key that registered it and receives what that key may read, exactly as
 * with `/v1/webhook-endpoints` called with the key; a read-only key cannot add one.
 */
export const orgWebhooksRouter = c.router({
  listKeyWebhooks: {
    method: 'GET',
    path: '/org/keys/:keyId/webhook-endpoints',
    summary: "A key's webhook endpoints, newest first (at most 100)",
    pathParams: ZKeyIdParam,
    responses: { 200: z.object({ endpoints: ZWebhookEndpoints }) },
    metadata: DEVELOPER,
  },
  createKeyWebhook: {
    method: 'POST',
    path: '/org/keys/:keyId/webhook-endpoints',
    summary:
      'Add an endpoint for a key; the answer holds its signing secret, shown this once (409 when the key, or the organisation, has the most endpoints it may have)',
    pathParams: ZKeyIdParam,
    body: ZNewWebhookEndpoint,
    responses: { 201: ZWebhookEndpointWithSecret, 409: ZError },
    metadata: DEVELOPER,
  },
  testKeyWebhook: {
    method: 'POST',
    path: '/org/keys/:keyId/webhook-endpoints/:endpointId/test',
    summary: 'Send the endpoint a test event now',
    pathParams: ZKeyEndpointParams,
    body: c.noBody(),
    responses: { 202: ZWebhookDelivery },
    metadata: DEVELOPER,
  },
  listKeyWebhookDeliveries: {
    method: 'GET',
    path: '/org/keys/:keyId/webhook-endpoints/:endpointId/deliveries',
    summary: "The endpoint's latest deliveries, newest first (at most 50)",
    pathParams: ZKeyEndpointParams,
    responses: { 200: z.object({ deliveries: ZWebhookDeliveries }) },
    metadata: DEVELOPER,
  },
});

/**
 * Saved searches (issue 28): "email me when a new animal matches". A visitor saves a listPets
 * filter with an address; the API emails a confirmation link and, once confirmed, at most one
 * alert a day per search. Confirming and unsubscribing take the token of an email's link.
 */
export const savedSearchesRouter = c.router({
  saveSearch: {
    method: 'POST',
    path: '/saved-searches',
    summary: 'Save a search for an address, unconfirmed; sends the confirmation email',
    body: ZSaveSearchRequest,
    responses: { 202: ZMessage },
    metadata: VISITOR,
  },
  confirmSearch: {
    method: 'POST',
    path: '/saved-searches/confirm',
    summary: "Confirm a saved search with the token of its confirmation email's link",
    body: z.object({ token: ZSavedSearchToken }),
    responses: { 200: ZSavedSearchAnswer },
    metadata: VISITOR,
  },
  unsubscribeSearch: {
    method: 'POST',
    path: '/saved-searches/unsubscribe',
    summary: "Stop a saved search's alerts with the token of an alert's unsubscribe link",
    body: z.object({ token: ZSavedSearchToken }),
    responses: { 200: ZSavedSearchAnswer },
    metadata: VISITOR,
  },
  listWaiting: {
    method: 'GET',
    path: '/saved-searches/waiting',
    summary: 'How many confirmed searches wait for each filter (counts only, no addresses)',
    responses: { 200: ZSavedSearchWaiting },
    metadata: STAFF,
  },
});

/**
 * Adopters on their application's page, opened from the private link of its emails (no account):
 * the link's token is what lets them act on that one application, as it lets them read it.
 */
export const applicationsRouter = c.router({
  withdrawApplication: {
    method: 'POST',
    path: '/applications/withdraw',
    summary:
      "The adopter withdraws their open application (cancel's transition, by `adopter`); staff and, for an approved one, the waiting list are emailed. 404: the link is not valid; 409: not open",
    body: ZOrderLinkLookup,
    responses: { 200: ZOrder, 409: ZError },
    metadata: VISITOR,
  },
});

export const SITE_PATH_PREFIX = '/internal';

/**
 * The site-only contract: operations for people (sign-in, sessions, accounts, the team), which
 * only the store's own site calls, with its first-party key (docs/decisions.md, "Sessions"). It is
 * never passed to the OpenAPI document, and the API answers 404 to any other caller.
 */
export const siteContract = c.router(
  {
    auth: authRouter,
    session: sessionRouter,
    account: accountRouter,
    team: teamRouter,
    audit: auditRouter,
    org: orgRouter,
    orgWebhooks: orgWebhooksRouter,
    savedSearches: savedSearchesRouter,
    plans: plansRouter,
    applications: applicationsRouter,
  },
  {
    pathPrefix: SITE_PATH_PREFIX,
    strictStatusCodes: true,
    commonResponses: {
      400: ZError,
      401: ZError,
      403: ZError,
      404: ZError,
      408: ZError,
      429: ZError,
      431: ZError,
      500: ZError,
      503: ZError,
    },
  },
);
export type TSiteContract = typeof siteContract;
