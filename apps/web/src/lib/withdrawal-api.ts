import 'server-only';
import type { TOrder } from '@pets/contract/schemas';
import { updateTag } from 'next/cache';
import { PETS_TAG } from './api';
import { callSiteApi, fetchOptions } from './api-client';
import { visitorCredential } from './site-api';

/**
 * An adopter withdrawing their application from the page its private link opens
 * (`siteContract.applications.withdrawApplication`), with the site's own key: the withdrawn
 * application; `refused` 404 for a link that is not valid, `refused` 409 for an application that
 * is no longer open (withdrawn already, or decided meanwhile).
 */
export const withdrawApplication = async (token: string) => {
  const result = await callSiteApi(
    'withdrawApplication',
    await visitorCredential(),
    // No Idempotency-Key: withdrawing twice changes nothing the second time (a 409).
    (client) =>
      client.applications.withdrawApplication({ body: { token }, fetchOptions: fetchOptions() }),
    (response): TOrder | undefined => (response.status === 200 ? response.body : undefined),
  );
  if (result.ok) {
    // One application fewer in review, or the animal free again: the public pages show it at once.
    updateTag(PETS_TAG);
  }
  return result;
};
