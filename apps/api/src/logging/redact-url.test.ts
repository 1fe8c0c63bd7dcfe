import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../test/api-harness';
import { redactUrl } from './redact-url';

describe('redactUrl', () => {
  it.each([
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets?limit=5&status=available', '/v1/pets?limit=5&status=available'],
    ['/v1/pets?api_key=abc&limit=5', '/v1/pets?api_key=[redacted]&limit=5'],
    ['/v1/pets?limit=5&API_KEY=abc', '/v1/pets?limit=5&API_KEY=[redacted]'],
    ['/v1/pets?Api-Key=abc', '/v1/pets?Api-Key=[redacted]'],
    ['/v1/pets?apikey=abc&key=def', '/v1/pets?apikey=[redacted]&key=[redacted]'],
    ['/v1/pets?token=a&access_token=b', '/v1/pets?token=[redacted]&access_token=[redacted]'],
    [
      '/v1/pets?refresh_token=a&client_secret=b',
      '/v1/pets?refresh_token=[redacted]&client_secret=[redacted]',
    ],
    ['/v1/pets?password=hunter2&secret=x', '/v1/pets?password=[redacted]&secret=[redacted]'],
    ['/v1/pets?api%5Fkey=abc', '/v1/pets?api%5Fkey=[redacted]'],
    ['/v1/pets?api_key[]=abc', '/v1/pets?api_key[]=[redacted]'],
    ['/v1/pets?token=a=b=c', '/v1/pets?token=[redacted]'],
    ['/v1/pets?%ZZ=1&token=x', '/v1/pets?%ZZ=1&token=[redacted]'],
    ['/v1/pets?monkey=1&tokens=2', '/v1/pets?monkey=1&tokens=2'],
    // A key of ours is recognised wherever it appears: a bare parameter, a path.
    ['/v1/pets?pets_live_Ab12Cd34', '/v1/pets?[redacted]'],
    ['/v1/pets/pets_test_Ab12Cd34', '/v1/pets/[redacted]'],
  ])('%s → %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('returns the very string it was given when there is nothing to redact', () => {
    const url = '/v1/pets?limit=5';
    expect(redactUrl(url)).toBe(url);
  });
});

describe('the access log over HTTP', () => {
  const api = useTestApi();
  let key: string;
  beforeAll(async () => {
    key = await api.createKey();
  });

  it('never carries a key sent in the query string, whatever the parameter', async () => {
    const secret = key.slice(10);
    for (const [index, query] of [
      `api_key=${key}`,
      `limit=1&API_KEY=${key}`,
      `token=${key}`,
      `access_token=${secret}`,
      `key=${secret}`,
      key,
    ].entries()) {
      const response = await api.fetch(`/v1/pets?${query}`, {
        key,
        headers: { 'x-request-id': `redacted-${index}` },
      });
      expect([200, 400]).toContain(response.status);
    }
    // The key as a path segment too (an unknown route).
    expect((await api.fetch(`/v1/${key}`, { key })).status).toBe(404);

    await new Promise((resolve) => setTimeout(resolve, 50));
    const logs = api.rawLogs();
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(secret);
    const line = api.logs.find((each) => each.msg === 'request' && each.reqId === 'redacted-0');
    expect(line?.url).toBe('/v1/pets?api_key=[redacted]');
    const second = api.logs.find((each) => each.msg === 'request' && each.reqId === 'redacted-1');
    expect(second?.url).toBe('/v1/pets?limit=1&API_KEY=[redacted]');
  });
});
