import type { TCheckedFormState } from '@/components/form/use-checked-form';

/**
 * The developer portal's forms as the browser holds them: each form's fields in its order, and
 * what it starts with. Their checks (portal-form-checks.ts, the contract's schemas, so zod) are
 * loaded by a form only when it is about to be sent; the server actions use the same checks.
 */

export const SIGN_UP_FIELDS = ['email', 'password', 'name', 'organizationName'] as const;
export type TSignUpField = (typeof SIGN_UP_FIELDS)[number];
export type TSignUpValues = Record<TSignUpField, string>;
/** Never sent back to the page: the browser keeps it (with JavaScript), or it is typed again. */
export const SIGN_UP_SECRETS = ['password'] as const satisfies readonly TSignUpField[];
export const EMPTY_SIGN_UP: TSignUpValues = {
  email: '',
  password: '',
  name: '',
  organizationName: '',
};
export type TSignUpState = TCheckedFormState<TSignUpField, TSignUpValues>;

export const KEY_FIELDS = ['name', 'mode', 'readOnly', 'expiresOn'] as const;
export type TKeyField = (typeof KEY_FIELDS)[number];
/** `readOnly` is its checkbox: 'on' while ticked. `expiresOn` a date input's `YYYY-MM-DD`. */
export type TKeyValues = Record<TKeyField, string>;
export const EMPTY_KEY: TKeyValues = { name: '', mode: 'test', readOnly: '', expiresOn: '' };

export const ROLL_FIELDS = ['overlapHours'] as const;
export type TRollField = (typeof ROLL_FIELDS)[number];
export type TRollValues = Record<TRollField, string>;
/** How long the old secret keeps working unless the developer chooses otherwise. */
export const EMPTY_ROLL: TRollValues = { overlapHours: '24' };
/** How long a rolled key's old secret may keep working, as Stripe's roll offers it. */
export const ROLL_OVERLAP_HOURS = [
  { hours: 0, label: 'Stop the old secret now' },
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '24 hours' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
] as const;

export const PLAN_FIELDS = ['plan', 'message'] as const;
export type TPlanField = (typeof PLAN_FIELDS)[number];
export type TPlanValues = Record<TPlanField, string>;
export type TPlanFormState = TCheckedFormState<TPlanField, TPlanValues>;

export const ENDPOINT_FIELDS = ['keyId', 'url', 'events', 'description'] as const;
export type TEndpointField = (typeof ENDPOINT_FIELDS)[number];
/** `events`: every event type ticked, or `*` for every event. */
export type TEndpointValues = {
  keyId: string;
  url: string;
  events: readonly string[];
  description: string;
};
export const EMPTY_ENDPOINT: TEndpointValues = { keyId: '', url: '', events: [], description: '' };

/**
 * The forms' checks (the contract's schemas, so zod): loaded once a field of a form is focused,
 * not with the page; the server action's identical check answers if it cannot load.
 */
export const loadPortalChecks = () => import('./portal-form-checks');
