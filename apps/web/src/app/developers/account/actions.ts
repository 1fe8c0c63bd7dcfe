'use server';

import { endOneSessionOf } from '@/lib/end-one-session';
import { PORTAL_SESSION_EXPIRED_PATH, requireDeveloper } from '@/lib/session';

/** Ends one of the developer's other sessions; this one is ended by "Sign out". */
export const endDeveloperSession = async (data: FormData): Promise<void> =>
  endOneSessionOf((await requireDeveloper()).apiKey, data, {
    account: '/developers/account',
    expired: PORTAL_SESSION_EXPIRED_PATH,
  });
