import type { TApplicationView } from './application-view';

/** What the status page's form shows: what was typed, and the application or why not. */
export type TApplicationLookupState = {
  values: { reference: string; email: string };
  formError?: string;
  /** The one answer for an unknown reference, a wrong email, or a reference that cannot be one. */
  isNotFound?: boolean;
  application?: TApplicationView;
};

export const NOT_FOUND_MESSAGE =
  "We couldn't find an application with that reference and email address. Check both (the " +
  'reference is on your confirmation, such as A-12) and try again.';

/** What the "email me my application links" form shows: what was typed, and the answer. */
export type TApplicationLinksState = {
  email: string;
  formError?: string;
  /** The address as the API read it, once the request was accepted. */
  sentTo?: string;
  expiresInDays?: number;
};
