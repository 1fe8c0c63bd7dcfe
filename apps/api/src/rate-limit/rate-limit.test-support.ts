import type { TTestApi } from '../test/api-harness';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `count` requests at once (in chunks, so the client does not run out of sockets). */
export const burst = async (
  send: () => Promise<Response>,
  count: number,
  chunk = 100,
): Promise<Response[]> => {
  const responses: Response[] = [];
  for (let sent = 0; sent < count; sent += chunk) {
    const size = Math.min(chunk, count - sent);
    responses.push(...(await Promise.all(Array.from({ length: size }, send))));
  }
  return responses;
};

export const countStatuses = (responses: Response[]): Record<number, number> => {
  const counts: Record<number, number> = {};
  for (const response of responses) {
    counts[response.status] = (counts[response.status] ?? 0) + 1;
  }
  return counts;
};

export const limitHeaders = (response: Response) => ({
  limit: Number(response.headers.get('x-ratelimit-limit')),
  remaining: Number(response.headers.get('x-ratelimit-remaining')),
  reset: Number(response.headers.get('x-ratelimit-reset')),
  retryAfter: response.headers.has('retry-after')
    ? Number(response.headers.get('retry-after'))
    : null,
  policy: response.headers.get('ratelimit-policy'),
  rateLimit: response.headers.get('ratelimit'),
});

export const list = (api: TTestApi, key: string | null) => () =>
  api.fetch('/v1/pets?limit=1', { key });

/** The X-RateLimit-Remaining values of the admitted responses, ascending. */
export const admittedRemaining = (responses: Response[]): number[] =>
  responses
    .filter((response) => response.status === 200)
    .map((response) => limitHeaders(response).remaining)
    .sort((a, b) => a - b);
