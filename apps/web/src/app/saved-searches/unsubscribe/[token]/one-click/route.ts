import { unsubscribeSavedSearch } from '@/lib/site-api';

type TContext = { params: Promise<{ token: string }> };

const text = (status: number, body: string): Response =>
  new Response(body, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

/**
 * The address of an alert's List-Unsubscribe header: a mail client's one-click unsubscribe
 * (RFC 8058) POSTs `List-Unsubscribe=One-Click` here, from its own servers, with no cookie or
 * other check to pass; the token alone stops that search's alerts.
 */
export const POST = async (_request: Request, { params }: TContext): Promise<Response> => {
  const { token } = await params;
  const answer = await unsubscribeSavedSearch(token.slice(0, 64));
  if (answer.ok) {
    return text(200, 'You will get no more emails about this search.\n');
  }
  return answer.failure.kind === 'refused' || answer.failure.kind === 'invalid'
    ? text(404, 'This unsubscribe link is not one of ours.\n')
    : text(503, 'We could not stop the emails just now. Please try again in a minute.\n');
};

/**
 * A person who opens the address: the page with its button. The Location is relative: the
 * request's own URL names the address Next.js listens on, not the site's.
 */
export const GET = async (_request: Request, { params }: TContext): Promise<Response> => {
  const { token } = await params;
  return new Response(null, {
    status: 303,
    headers: {
      location: `/saved-searches/unsubscribe/${encodeURIComponent(token.slice(0, 64))}`,
      'cache-control': 'no-store',
    },
  });
};
