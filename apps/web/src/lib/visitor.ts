import 'server-only';
import { FirstPartyHeader } from '@pets/contract';
import { headers } from 'next/headers';
import { PATH_HEADER, VISITOR_HEADER } from '../edge/request-headers';
import { visitorKeyOf } from '../edge/visitor-key';
import { webConfig } from '../env';

/**
 * The visitor of the current request, as the site's edge decided it (edge/visitor.ts): the key its
 * limits count under, and the address the API is told, so the API counts the visitor and not the
 * site (FirstPartyHeader). Pages and actions only ever run behind the edge (`pnpm start`, the
 * image); without it there is no visitor to tell apart and everyone is "unknown".
 */
export type TVisitor = { address: string | undefined; key: string };

export const currentVisitor = async (): Promise<TVisitor> => {
  const address = (await headers()).get(VISITOR_HEADER) ?? undefined;
  return { address, key: address ? visitorKeyOf(address) : 'unknown' };
};

/** The path the visitor asked for (with its query), as the edge recorded it. */
export const requestedPath = async (): Promise<string | undefined> =>
  (await headers()).get(PATH_HEADER) ?? undefined;

/** For calls made with the site's own key: who the visitor is. */
export const visitorHeaders = (visitor: TVisitor): Record<string, string> =>
  visitor.address ? { [FirstPartyHeader.visitorIp.toLowerCase()]: visitor.address } : {};

/**
 * For calls made with a person's session credential: the site's first-party key beside it (the
 * API refuses a session credential without it) and who the visitor is, vouched for by that key.
 */
export const vouchedVisitorHeaders = (visitor: TVisitor): Record<string, string> => ({
  [FirstPartyHeader.firstPartyKey.toLowerCase()]: webConfig().apiKey,
  ...(visitor.address ? { [FirstPartyHeader.visitorIp.toLowerCase()]: visitor.address } : {}),
});
