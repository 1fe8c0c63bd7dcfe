import { generateApiKey } from '@pets/store/api-key-format';
import { describe, expect, it } from 'vitest';
import { limitHeaders } from '../rate-limit/rate-limit.test-support';
import { errorBody, useTestApi } from '../test/api-harness';

// Failed authentications per client address (docs/errors.md): a budget of 5 here, so that tests
// stay short; production allows 60 per 10 minutes. Each test uses addresses of its own, told to
// the API through X-Forwarded-For from a trusted proxy (loopback), as behind nginx.
const BUDGET = 5;
let skippedMs = 0;
const clock = () => performance.now() + skippedMs;
const api = useTestApi({
  env: {
    TRUSTED_PROXIES: 'loopback',
    AUTH_FAILURE_LIMIT: String(BUDGET),
    AUTH_FAILURE_WINDOW_SECONDS: '60',
  },
  keyCache: { now: clock, maxEntries: 3 },
});

const from = (address: string, key: string | null, authorization?: string) =>
  api.fetch('/v1/pets?limit=1', {
    key,
    headers: { 'x-forwarded-for': address, ...(authorization ? { authorization } : {}) },
  });

const guess = () => generateApiKey('production').key;

const guessUntilRefused = async (address: string) => {
  for (let i = 0; i < BUDGET; i += 1) {
    expect((await from(address, guess())).status).toBe(401);
  }
};

describe('failed authentications are limited per client address', () => {
  it('after the budget of wrong keys, the valid key from that address gets 429; from another, 200', async () => {
    const key = await api.createKey({ plan: 'business' });
    await guessUntilRefused('203.0.113.10');

    const refused = await from('203.0.113.10', key);
    expect(refused.status).toBe(429);
    expect(await errorBody(refused)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    // The headers describe the failed-authentication budget: when this address may try again.
    const headers = limitHeaders(refused);
    expect(headers).toMatchObject({ limit: BUDGET, remaining: 0 });
    expect(headers.retryAfter).toBeGreaterThan(50);
    expect(headers.retryAfter).toBeLessThanOrEqual(60);
    expect(headers.reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 50);
    expect(headers.policy).toBe(`"auth_failures";q=${BUDGET};w=60`);

    expect((await from('203.0.113.11', key)).status).toBe(200);
    // Another wrong key from the refused address is refused too, with no lookup.
    expect((await from('203.0.113.10', guess())).status).toBe(429);
    // So is the valid key on a /v1 address no route serves (identified by the same hook).
    const nowhere = await api.fetch('/v1/nowhere', {
      key,
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(nowhere.status).toBe(429);
    expect(await errorBody(nowhere)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limitHeaders(nowhere)).toMatchObject({ limit: BUDGET, remaining: 0 });
    expect(nowhere.headers.get('x-request-id')).toBeTruthy();
    // Operators see the address once, when it used its budget up; never a key.
    const events = api.logs.filter(
      (line) => line.event === 'auth_failures_exceeded' && line.ip === '203.0.113.10',
    );
    expect(events).toEqual([expect.objectContaining({ limit: BUDGET, level: 40 })]);
    expect(api.rawLogs()).not.toContain(key.slice(14));
  });

  it('a request without any key is still 401 from a refused address (the anonymous budget)', async () => {
    await guessUntilRefused('203.0.113.20');
    const response = await from('203.0.113.20', null);
    expect(response.status).toBe(401);
    expect(limitHeaders(response)).toMatchObject({ limit: 60, remaining: expect.any(Number) });
  });

  it('a success does not reset the count: a valid key cannot launder guesses', async () => {
    const key = await api.createKey();
    for (let i = 0; i < BUDGET; i += 1) {
      expect((await from('203.0.113.30', guess())).status).toBe(401);
      expect((await from('203.0.113.30', key)).status).toBe(i < BUDGET - 1 ? 200 : 429);
    }
  });

  it('guesses beyond the budget cost no database lookup, nor does the valid key then', async () => {
    const before = api.keyLookups();
    await guessUntilRefused('203.0.113.40');
    expect(api.keyLookups() - before).toBe(BUDGET);
    for (let i = 0; i < 50; i += 1) {
      expect((await from('203.0.113.40', guess())).status).toBe(429);
    }
    expect((await from('203.0.113.40', await api.createKey())).status).toBe(429);
    expect(api.keyLookups() - before).toBe(BUDGET);
  });

  it('malformed keys cost no lookup and count as failures', async () => {
    const before = api.keyLookups();
    // A test key (pets_test_) is well formed on production too (a key's mode): an unknown prefix
    // is not.
    const unknownPrefix = guess().replace(/^pets_live_/, 'pets_beta_');
    const attempts = [
      'Bearer hunter2',
      `Bearer ${guess().slice(0, -1)}`,
      `Bearer ${guess()}!`,
      `Bearer ${unknownPrefix}`,
      'Basic dXNlcjpwYXNz',
    ];
    for (const authorization of attempts) {
      expect((await from('203.0.113.50', null, authorization)).status).toBe(401);
    }
    expect((await from('203.0.113.50', await api.createKey())).status).toBe(429);
    expect(api.keyLookups() - before).toBe(0);
  });
});

describe('unknown keys are remembered (the negative cache)', () => {
  it('an unknown key presented again costs no lookup until its 60 s are over', async () => {
    const unknown = guess();
    const before = api.keyLookups();
    expect((await from('203.0.113.60', unknown)).status).toBe(401);
    expect((await from('203.0.113.61', unknown)).status).toBe(401);
    expect(api.keyLookups() - before).toBe(1);
    // Past the 4.5 s a known key's answer lasts, an unknown one is still remembered...
    skippedMs += 10_000;
    expect((await from('203.0.113.62', unknown)).status).toBe(401);
    expect(api.keyLookups() - before).toBe(1);
    // ... until 60 s after it was found unknown.
    skippedMs += 51_000;
    expect((await from('203.0.113.63', unknown)).status).toBe(401);
    expect(api.keyLookups() - before).toBe(2);
  });

  it('a flood of unknown keys does not evict known keys from the cache', async () => {
    // The key cache holds 3 known keys here; unknown ones are kept apart.
    const key = await api.createKey();
    expect((await from('203.0.113.70', key)).status).toBe(200);
    const before = api.keyLookups();
    for (let i = 0; i < 8; i += 1) {
      expect((await from(`203.0.113.${71 + (i % 2)}`, guess())).status).toBe(401);
    }
    expect(api.keyLookups() - before).toBe(8);
    expect((await from('203.0.113.70', key)).status).toBe(200);
    expect(api.keyLookups() - before).toBe(8);
  });

  it('a key created after a flood of guesses works at once', async () => {
    for (let i = 0; i < 3; i += 1) {
      await from('203.0.113.80', guess());
    }
    const key = await api.createKey();
    expect((await from('203.0.113.81', key)).status).toBe(200);
  });
});
