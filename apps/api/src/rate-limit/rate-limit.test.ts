import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody, json, startTestApi, useTestApi } from '../test/api-harness';
import {
  admittedRemaining,
  burst,
  countStatuses,
  limitHeaders,
  list,
  sleep,
} from './rate-limit.test-support';

// Limits of the spec's plans, per process memory (REDIS_URL unset). Windows are the real ones
// unless a test shortens them: no test waits for a real minute or day.

describe('per-plan admission, exact under concurrency', () => {
  const api = useTestApi();

  it('Free: the 61st request in a minute is the first 429', async () => {
    const key = await api.createKey({ plan: 'free' });
    for (let i = 1; i <= 60; i += 1) {
      const response = await api.fetch('/v1/pets?limit=1', { key });
      expect(response.status).toBe(200);
      expect(limitHeaders(response)).toMatchObject({ limit: 60, remaining: 60 - i });
    }
    const refused = await api.fetch('/v1/pets?limit=1', { key });
    expect(refused.status).toBe(429);
    expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
    const headers = limitHeaders(refused);
    expect(headers).toMatchObject({ limit: 60, remaining: 0 });
    expect(headers.retryAfter).toBeGreaterThan(0);
    expect(headers.retryAfter).toBeLessThanOrEqual(60);
  });

  it('Free: 100 simultaneous requests on a fresh key admit exactly 60', async () => {
    const key = await api.createKey({ plan: 'free' });
    const responses = await burst(list(api, key), 100, 100);
    expect(countStatuses(responses)).toEqual({ 200: 60, 429: 40 });
    expect(admittedRemaining(responses)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('Pro: 300 a minute', async () => {
    const key = await api.createKey({ plan: 'pro' });
    expect(countStatuses(await burst(list(api, key), 350))).toEqual({ 200: 300, 429: 50 });
  });

  it('Business: 1,000 a minute', async () => {
    const key = await api.createKey({ plan: 'business' });
    expect(countStatuses(await burst(list(api, key), 1_050))).toEqual({ 200: 1_000, 429: 50 });
  });

  it('other keys are unaffected by one that is limited', async () => {
    const limited = await api.createKey({ plan: 'free' });
    await burst(list(api, limited), 61);
    expect((await list(api, limited)()).status).toBe(429);
    const other = await api.createKey({ plan: 'free' });
    const response = await list(api, other)();
    expect(response.status).toBe(200);
    expect(limitHeaders(response).remaining).toBe(59);
  });
});

// A 2-second "minute": each burst below fits in one window even on a busy machine.
describe('both windows, with short windows for the test', () => {
  const api = useTestApi({ rateLimit: { minuteMs: 2_000, dayMs: 60_000 } });

  it('Enterprise keys get their own numbers, per minute and per day', async () => {
    const key = await api.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 10,
      rateLimitPerDay: 15,
    });
    expect(countStatuses(await burst(list(api, key), 12))).toEqual({ 200: 10, 429: 2 });
    await sleep(2_100);
    const second = await burst(list(api, key), 12);
    expect(countStatuses(second)).toEqual({ 200: 5, 429: 7 });
    const refused = second.find((response) => response.status === 429) as Response;
    // The day is the exhausted window now: it is the one reported, and Retry-After waits for it.
    expect(limitHeaders(refused)).toMatchObject({ limit: 15, remaining: 0 });
    expect(limitHeaders(refused).retryAfter).toBeGreaterThan(50);
    expect(limitHeaders(refused).rateLimit).toMatch(/^"day";r=0;t=\d+$/);
  });

  it('refused requests are not counted: a request counts once in each window, only if admitted', async () => {
    const key = await api.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 5,
      rateLimitPerDay: 8,
    });
    expect(countStatuses(await burst(list(api, key), 50))).toEqual({ 200: 5, 429: 45 });
    await sleep(2_100);
    // Had the 45 refusals counted, the day would be spent; it has 3 left.
    expect(countStatuses(await burst(list(api, key), 10))).toEqual({ 200: 3, 429: 7 });
  });
});

// Minutes of 300 ms: only the day's total is asserted, however the requests fall into minutes.
describe('the day window', () => {
  const api = useTestApi({ rateLimit: { minuteMs: 300, dayMs: 120_000 } });

  it('Free: exactly 1,000 requests a day, however they are spread over minutes', async () => {
    const key = await api.createKey({ plan: 'free' });
    let admitted = 0;
    let last: Response | undefined;
    for (let round = 0; round < 25 && admitted < 1_000; round += 1) {
      const responses = await burst(list(api, key), 60, 60);
      admitted += countStatuses(responses)[200] ?? 0;
      last = responses.at(-1);
      await sleep(320);
    }
    expect(admitted).toBe(1_000);
    const refused = await list(api, key)();
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ limit: 1_000, remaining: 0 });
    expect(last).toBeDefined();
  });
});

describe('headers on every response', () => {
  const api = useTestApi();
  let key: string;
  beforeAll(async () => {
    key = await api.createKey({ plan: 'pro' });
  });

  const expectHeaders = (response: Response, limit: number) => {
    const headers = limitHeaders(response);
    const now = Date.now() / 1000;
    expect(headers.limit).toBe(limit);
    expect(Number.isInteger(headers.remaining)).toBe(true);
    expect(headers.remaining).toBeGreaterThanOrEqual(0);
    expect(headers.reset).toBeGreaterThanOrEqual(Math.floor(now));
    expect(headers.reset).toBeLessThanOrEqual(Math.ceil(now) + 86_400);
    expect(headers.policy).toBe(
      `"minute";q=${limit};w=60, "day";q=${limit === 300 ? 10_000 : 1_000};w=86400`,
    );
    expect(headers.rateLimit).toMatch(/^"(minute|day)";r=\d+;t=\d+$/);
  };

  it.each([
    ['200', () => api.fetch('/v1/pets', { key }), 200],
    [
      '201',
      () => api.fetch('/v1/pets', json({ name: 'Rex', categoryId: 1 }, { key } as RequestInit)),
      400,
    ],
    ['400', () => api.fetch('/v1/pets?limit=0', { key }), 400],
    ['404 (getPet)', () => api.fetch('/v1/pets/424242', { key }), 404],
    ['404 (no such route)', () => api.fetch('/v1/kittens', { key }), 404],
    ['405', () => api.fetch('/v1/categories', { key, method: 'DELETE' }), 405],
  ])('%s', async (_label, send, status) => {
    const response = await send();
    expect(response.status).toBe(status);
    expectHeaders(response, 300);
  });

  it('201', async () => {
    const category = await api.prisma.category.create({ data: { name: 'Hamsters' } });
    const response = await api.fetch('/v1/pets', {
      ...json({ name: 'Nugget', categoryId: Number(category.id) }),
      key,
    });
    expect(response.status).toBe(201);
    expectHeaders(response, 300);
  });

  it('401: requests without a valid key are limited per client address, with the Free numbers', async () => {
    const response = await api.fetch('/v1/pets', { key: null });
    expect(response.status).toBe(401);
    expectHeaders(response, 60);
  });

  it('500', async () => {
    await api.prisma.$executeRawUnsafe('ALTER TABLE categories RENAME COLUMN name TO name_broken');
    try {
      const response = await api.fetch('/v1/categories', { key });
      expect(response.status).toBe(500);
      expectHeaders(response, 300);
    } finally {
      await api.prisma.$executeRawUnsafe(
        'ALTER TABLE categories RENAME COLUMN name_broken TO name',
      );
    }
  });

  it('429: Retry-After and X-RateLimit-Reset agree', async () => {
    const free = await api.createKey({ plan: 'free' });
    await burst(list(api, free), 60);
    const refused = await list(api, free)();
    expect(refused.status).toBe(429);
    expectHeaders(refused, 60);
    const { reset, retryAfter, remaining } = limitHeaders(refused);
    expect(remaining).toBe(0);
    expect(Math.abs(reset - (Date.now() / 1000 + (retryAfter ?? 0)))).toBeLessThanOrEqual(1.5);
  });
});

describe('requests without a valid key', () => {
  it('are counted per address: the 61st gets 429 instead of 401', async () => {
    const api = await startTestApi();
    try {
      const responses = await burst(list(api, null), 60);
      expect(countStatuses(responses)).toEqual({ 401: 60 });
      const refused = await list(api, null)();
      expect(refused.status).toBe(429);
      expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited' });
      // A caller with a valid key from the same address is counted on its key, not the address.
      const key = await api.createKey({ plan: 'free' });
      expect((await list(api, key)()).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe('temporary ban', () => {
  // A 4-second "minute", and refusals must be sustained over 1 second (10 in production).
  const api = useTestApi({
    rateLimit: {
      minuteMs: 4_000,
      ban: { threshold: 5, strikeWindowMs: 60_000, banMs: 5_000, sustainedMs: 1_000 },
    },
  });

  it('a key that keeps sending while limited is banned, logged, then let back in', async () => {
    const key = await api.createKey({ plan: 'free', name: 'impatient' });
    const bystander = await api.createKey({ plan: 'free', name: 'bystander' });
    expect(countStatuses(await burst(list(api, key), 60))).toEqual({ 200: 60 });

    // Far more refusals than the threshold, but all within one moment: no ban.
    const refusals = await burst(list(api, key), 20);
    expect(countStatuses(refusals)).toEqual({ 429: 20 });
    for (const limited of refusals) {
      expect(await errorBody(limited)).toMatchObject({ code: 'rate_limited', status: 429 });
    }
    expect(api.logs.some((entry) => entry.event === 'api_key_banned')).toBe(false);

    // Still refused a second later: the refusals are sustained now, and that bans.
    await sleep(1_100);
    const banned = await list(api, key)();
    expect(banned.status).toBe(429);
    expect(await errorBody(banned)).toMatchObject({ code: 'api_key_banned', status: 429 });
    expect(limitHeaders(banned)).toMatchObject({ remaining: 0, retryAfter: 5 });

    const line = api.logs.find((entry) => entry.event === 'api_key_banned');
    expect(line).toMatchObject({ apiKey: key.slice(0, 14), threshold: 5 });
    expect(api.rawLogs()).not.toContain(key);

    // Still banned once the minute window has room again...
    await sleep(3_100);
    expect(await errorBody(await list(api, key)())).toMatchObject({ code: 'api_key_banned' });
    // ...and other keys never noticed.
    expect((await list(api, bystander)()).status).toBe(200);

    await sleep(2_100);
    expect((await list(api, key)()).status).toBe(200);
  });
});

describe('the ban rule with the production settings', () => {
  const api = useTestApi();

  it('121 simultaneous requests on a Free key: 60 admitted, 61 rate_limited, no ban', async () => {
    const key = await api.createKey({ plan: 'free' });
    const responses = await burst(list(api, key), 121, 121);
    expect(countStatuses(responses)).toEqual({ 200: 60, 429: 61 });
    const codes = await Promise.all(
      responses
        .filter((response) => response.status === 429)
        .map(async (response) => (await errorBody(response)).code),
    );
    expect(new Set(codes)).toEqual(new Set(['rate_limited']));
    // The next request is refused for the minute, not banned for 15 minutes.
    const next = await list(api, key)();
    expect(await errorBody(next)).toMatchObject({ code: 'rate_limited' });
    expect(limitHeaders(next).retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('per-address state is bounded (RATE_LIMIT_MEMORY_MAX_TRACKERS)', () => {
  const api = useTestApi({
    env: { RATE_LIMIT_MEMORY_MAX_TRACKERS: '100', TRUSTED_PROXIES: 'loopback' },
  });
  const from = (address: string) => () =>
    api.fetch('/v1/pets?limit=1', { key: null, headers: { 'x-forwarded-for': address } });

  it('beyond the cap, the least recently used address is evicted and starts afresh', async () => {
    const limited = from('10.1.0.1');
    expect(countStatuses(await burst(limited, 61))).toEqual({ 401: 60, 429: 1 });

    // 99 other addresses: 100 in all, within the cap, so the limited one is still limited.
    for (let i = 1; i <= 99; i += 1) {
      expect((await from(`10.2.0.${i}`)()).status).toBe(401);
    }
    expect((await limited()).status).toBe(429);

    // 100 more: the limited address, now the least recently used, is evicted.
    for (let i = 1; i <= 100; i += 1) {
      expect((await from(`10.3.0.${i}`)()).status).toBe(401);
    }
    const afresh = await limited();
    expect(afresh.status).toBe(401);
    expect(limitHeaders(afresh)).toMatchObject({ limit: 60, remaining: 59 });
  });
});
