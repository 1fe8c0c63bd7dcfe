import { request as httpRequest } from 'node:http';
import { FirstPartyHeader } from '@pets/contract';
import { generateApiKey } from '@pets/store/api-key-format';
import { describe, expect, it } from 'vitest';
import { countStatuses, limitHeaders } from '../rate-limit/rate-limit.test-support';
import { errorBody, startTestApi, type TTestApi, useTestApi } from '../test/api-harness';

// The public site is one client of the API (one key, one address) speaking for many
// visitors. A first-party key vouches for each visitor's address (Pets-Visitor-IP), so the
// failed-authentication budget and the site key's rate limits count per visitor; nobody else can
// make the API believe that header (docs/decisions.md, "The site as a first-party client").
// Other clients are other loopback addresses (127.0.0.N), over real HTTP.

type TSend = { from?: string; key?: string | null; headers?: Record<string, string> };

/** One request from a given local address (the socket's peer the API sees), as a Response. */
const sendFrom = (
  api: TTestApi,
  path: string,
  { from = '127.0.0.1', key = null, headers = {} }: TSend = {},
): Promise<Response> =>
  new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${api.baseUrl}${path}`,
      {
        localAddress: from,
        agent: false,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (typeof value === 'string') {
              headers.set(name, value);
            }
          }
          resolve(
            new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers }),
          );
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });

const guess = () => generateApiKey('production').key;

const visitor = (address: string, siteKey?: string): Record<string, string> => ({
  [FirstPartyHeader.visitorIp]: address,
  ...(siteKey ? { [FirstPartyHeader.firstPartyKey]: siteKey } : {}),
});

const accessLines = (api: TTestApi) => api.logs.filter((line) => line.msg === 'request');

describe('the site survives a visitor guessing keys (production budget: 60 per 10 minutes)', () => {
  const api = useTestApi();

  it('100 wrong keys typed at the site by one visitor refuse that visitor only: the site key and other visitors still get 200', async () => {
    const site = await api.createKey({ name: 'Site', plan: 'business', firstParty: true });
    const staff = await api.createKey({ name: 'Front desk', role: 'staff' });

    const guesses = await Promise.all(
      Array.from({ length: 100 }, () =>
        sendFrom(api, '/v1/me', { key: guess(), headers: visitor('203.0.113.7', site) }),
      ),
    );
    const statuses = countStatuses(guesses);
    // At least the budget's worth are looked up and refused 401; the rest, once it is spent, 429.
    expect(Object.keys(statuses).filter((status) => status !== '401' && status !== '429')).toEqual(
      [],
    );
    expect(statuses[401]).toBeGreaterThanOrEqual(60);

    // That visitor is over its budget: refused whatever it sends, its staff key included.
    const refused = await sendFrom(api, '/v1/me', {
      key: staff,
      headers: visitor('203.0.113.7', site),
    });
    expect(refused.status).toBe(429);
    expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limitHeaders(refused)).toMatchObject({ limit: 60, remaining: 0 });

    // The site's own key, with no visitor and for another visitor, is untouched...
    expect((await sendFrom(api, '/v1/pets?limit=1', { key: site })).status).toBe(200);
    expect(
      (await sendFrom(api, '/v1/pets?limit=1', { key: site, headers: visitor('203.0.113.8') }))
        .status,
    ).toBe(200);
    // ... and so is a staff member signing in through the site as another visitor.
    const other = await sendFrom(api, '/v1/me', {
      key: staff,
      headers: visitor('203.0.113.9', site),
    });
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ role: 'staff', firstParty: false });
    // The site's address itself spent nothing: a wrong key from it is a 401, not a 429.
    expect((await sendFrom(api, '/v1/me', { key: guess() })).status).toBe(401);

    // Operators see the visitor's address, in the access log and in the one warning.
    expect(
      api.logs.filter((line) => line.event === 'auth_failures_exceeded').map((line) => line.ip),
    ).toEqual(['203.0.113.7']);
    expect(accessLines(api).filter((line) => line.ip === '203.0.113.7')).toHaveLength(101);
    expect(api.rawLogs()).not.toContain(site.slice(14));
  });
});

describe('nobody but a first-party key can name the visitor', () => {
  const BUDGET = 5;
  const api = useTestApi({ env: { AUTH_FAILURE_LIMIT: String(BUDGET) } });

  it('a key that is not first-party sending Pets-Visitor-IP is ignored: its failures count against its own address', async () => {
    const partner = await api.createKey({ plan: 'pro' });
    for (let i = 0; i < BUDGET; i += 1) {
      const response = await sendFrom(api, '/v1/pets', {
        from: '127.0.0.21',
        key: guess(),
        headers: visitor(`198.51.100.${i}`),
      });
      expect(response.status).toBe(401);
    }
    // A valid partner key naming a visitor is believed no more.
    const refused = await sendFrom(api, '/v1/pets', {
      from: '127.0.0.21',
      key: partner,
      headers: visitor('198.51.100.99'),
    });
    expect(refused.status).toBe(429);
    expect((await sendFrom(api, '/v1/pets', { from: '127.0.0.22', key: partner })).status).toBe(
      200,
    );
    expect(
      accessLines(api)
        .filter((line) => line.status === 401)
        .map((line) => line.ip),
    ).toEqual(Array.from({ length: BUDGET }, () => '127.0.0.21'));
  });

  it('a Pets-First-Party-Key that is not a valid key is ignored and counts as one failed authentication', async () => {
    const partner = await api.createKey({ plan: 'pro' });
    const unknown = guess();
    for (let i = 0; i < BUDGET - 1; i += 1) {
      const response = await sendFrom(api, '/v1/pets', {
        from: '127.0.0.23',
        key: partner,
        headers: visitor('198.51.100.7', i % 2 === 0 ? unknown : 'hunter2'),
      });
      expect(response.status).toBe(200);
    }
    // The fifth wrong site key uses the address's budget up: that request and the next are 429.
    for (let i = 0; i < 2; i += 1) {
      const response = await sendFrom(api, '/v1/pets', {
        from: '127.0.0.23',
        key: partner,
        headers: visitor('198.51.100.7', unknown),
      });
      expect(response.status).toBe(429);
      expect(await errorBody(response)).toMatchObject({ code: 'rate_limited' });
    }
    expect((await sendFrom(api, '/v1/pets', { from: '127.0.0.24', key: partner })).status).toBe(
      200,
    );
    expect(
      api.logs.filter((line) => line.event === 'auth_failures_exceeded').map((line) => line.ip),
    ).toContain('127.0.0.23');
    expect(accessLines(api).map((line) => line.ip)).not.toContain('198.51.100.7');
  });

  it('a valid key that is not first-party in Pets-First-Party-Key vouches for nothing, and costs nothing', async () => {
    const partner = await api.createKey({ plan: 'pro' });
    for (let i = 0; i < BUDGET; i += 1) {
      const response = await sendFrom(api, '/v1/pets', {
        from: '127.0.0.25',
        key: guess(),
        headers: visitor(`198.51.100.${20 + i}`, partner),
      });
      expect(response.status).toBe(401);
    }
    // The failures were the bearer keys', counted against the address, not any visitor.
    expect(
      (
        await sendFrom(api, '/v1/pets', {
          from: '127.0.0.25',
          key: partner,
          headers: visitor('198.51.100.30', partner),
        })
      ).status,
    ).toBe(429);
  });

  it('a revoked first-party key vouches for nothing', async () => {
    const site = await api.createKey({ name: 'Old site', firstParty: true });
    const row = await api.prisma.apiKey.findFirstOrThrow({ where: { name: 'Old site' } });
    await api.prisma.apiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    for (let i = 0; i < BUDGET; i += 1) {
      await sendFrom(api, '/v1/pets', {
        from: '127.0.0.26',
        key: guess(),
        headers: visitor('198.51.100.40', site),
      });
    }
    // Each request counted its wrong site key and its wrong bearer key against the address.
    const partner = await api.createKey({ plan: 'pro' });
    expect((await sendFrom(api, '/v1/pets', { from: '127.0.0.26', key: partner })).status).toBe(
      429,
    );
  });
});

describe("the site key's quota is per visitor", () => {
  const api = useTestApi();

  it('visitor A spending a first-party key (enterprise, 2 per minute) never refuses visitor B; without the header the key has its own window', async () => {
    const site = await api.createKey({
      name: 'Tiny site',
      plan: 'enterprise',
      rateLimitPerMinute: 2,
      rateLimitPerDay: 100,
      firstParty: true,
    });
    const asVisitor = (address: string) =>
      sendFrom(api, '/v1/pets?limit=1', { key: site, headers: visitor(address) });

    expect((await asVisitor('203.0.113.10')).status).toBe(200);
    const second = await asVisitor('203.0.113.10');
    expect(second.status).toBe(200);
    expect(limitHeaders(second)).toMatchObject({ limit: 2, remaining: 0 });
    const refused = await asVisitor('203.0.113.10');
    expect(refused.status).toBe(429);
    expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited' });

    const other = await asVisitor('203.0.113.11');
    expect(other.status).toBe(200);
    expect(limitHeaders(other)).toMatchObject({ limit: 2, remaining: 1 });

    // The key's own window, for requests that name no visitor (or no valid one).
    const own = await sendFrom(api, '/v1/pets?limit=1', { key: site });
    expect(own.status).toBe(200);
    expect(limitHeaders(own)).toMatchObject({ limit: 2, remaining: 1 });
    expect((await asVisitor('not-an-address')).status).toBe(200);
    expect((await asVisitor('203.0.113.12, 203.0.113.13')).status).toBe(429);
  });

  it('IPv6 visitors are grouped by /64, as every client address is', async () => {
    const site = await api.createKey({
      plan: 'enterprise',
      rateLimitPerMinute: 2,
      rateLimitPerDay: 100,
      firstParty: true,
    });
    const asVisitor = (address: string) =>
      sendFrom(api, '/v1/pets?limit=1', { key: site, headers: visitor(address) });
    expect((await asVisitor('2001:db8:1:2::1')).status).toBe(200);
    expect((await asVisitor('2001:db8:1:2::ffff')).status).toBe(200);
    expect((await asVisitor('2001:db8:1:2:abcd::7')).status).toBe(429);
    expect((await asVisitor('2001:db8:1:3::1')).status).toBe(200);
  });

  it('a staff key used through the site keeps its own per-key quota', async () => {
    const site = await api.createKey({ firstParty: true });
    const staff = await api.createKey({
      role: 'staff',
      plan: 'enterprise',
      rateLimitPerMinute: 2,
      rateLimitPerDay: 100,
    });
    const through = (address: string) =>
      sendFrom(api, '/v1/me', { key: staff, headers: visitor(address, site) });
    expect((await through('203.0.113.20')).status).toBe(200);
    expect((await through('203.0.113.21')).status).toBe(200);
    expect((await through('203.0.113.22')).status).toBe(429);
  });
});

describe('X-Forwarded-For (TRUSTED_PROXIES)', () => {
  const guessFrom = (api: TTestApi, forwardedFor: string) =>
    sendFrom(api, '/v1/pets', {
      from: '127.0.0.31',
      key: guess(),
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('is ignored from a peer that is not trusted (the default): the budget is the socket address', async () => {
    const api = await startTestApi({ env: { AUTH_FAILURE_LIMIT: '3' } });
    try {
      for (let i = 0; i < 3; i += 1) {
        expect((await guessFrom(api, `198.51.100.${i}`)).status).toBe(401);
      }
      expect((await guessFrom(api, '198.51.100.50')).status).toBe(429);
      expect(
        (await sendFrom(api, '/v1/pets', { from: '127.0.0.32', key: await api.createKey() }))
          .status,
      ).toBe(200);
      expect(api.logs.find((line) => line.event === 'auth_failures_exceeded')?.ip).toBe(
        '127.0.0.31',
      );
    } finally {
      await api.close();
    }
  });

  it.each(['loopback', '1'])(
    'TRUSTED_PROXIES=%s: the forwarded address is the client',
    async (trusted) => {
      const api = await startTestApi({
        env: { AUTH_FAILURE_LIMIT: '3', TRUSTED_PROXIES: trusted },
      });
      try {
        for (let i = 0; i < 3; i += 1) {
          expect((await guessFrom(api, '198.51.100.60')).status).toBe(401);
        }
        expect((await guessFrom(api, '198.51.100.60')).status).toBe(429);
        expect((await guessFrom(api, '198.51.100.61')).status).toBe(401);
        expect(api.logs.find((line) => line.event === 'auth_failures_exceeded')?.ip).toBe(
          '198.51.100.60',
        );
      } finally {
        await api.close();
      }
    },
  );
});
