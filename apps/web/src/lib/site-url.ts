import 'server-only';
import { headers } from 'next/headers';
import { webConfig } from '@/env';

/**
 * The site's own origin for absolute links (share previews, structured data): SITE_URL's, else,
 * in local use without one, the request's host over plain HTTP, as the edge decides it too.
 */
export const siteOrigin = async (): Promise<string> =>
  webConfig().siteOrigin ?? `http://${(await headers()).get('host') ?? 'localhost'}`;
