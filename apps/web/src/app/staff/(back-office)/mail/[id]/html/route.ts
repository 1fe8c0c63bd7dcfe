import { webConfig } from '@/env';
import { readDevMail } from '@/lib/dev-mailbox';
import { isSignedIn } from '@/lib/session';

/**
 * A dev-mailbox message's HTML, for the sandboxed frame of its page: staff only, and served with a
 * policy that loads and runs nothing but the message's own inline styles (and images from the
 * web), whatever the message holds.
 */
export const GET = async (
  _request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> => {
  const { mailDir } = webConfig();
  const { id } = await params;
  const message = mailDir && (await isSignedIn()) ? await readDevMail(mailDir, id) : undefined;
  if (!message) {
    return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  }
  return new Response(message.html, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; sandbox; frame-ancestors 'self'",
      'x-content-type-options': 'nosniff',
    },
  });
};
