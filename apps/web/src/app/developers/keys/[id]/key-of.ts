import 'server-only';
import { notFound } from 'next/navigation';
import { portalReadFailure } from '@/components/portal-read-failure';
import type { TDeveloper } from '@/lib/session';
import { listOrgKeys } from '@/lib/site-api';

/**
 * The organisation's key of a roll or revoke page, or the page's failure: a key of another
 * organisation, or none, is the 404 page (the list is the only read there is).
 */
export const keyOfPage = async (developer: TDeveloper, id: string, retryHref: string) => {
  if (!/^[1-9][0-9]{0,17}$/.test(id)) {
    notFound();
  }
  const keys = await listOrgKeys(developer.apiKey);
  if (!keys.ok) {
    return { failure: portalReadFailure(keys.failure, retryHref) };
  }
  const key = keys.data.find((each) => each.id === id);
  if (key?.status !== 'active') {
    notFound();
  }
  return { key };
};
