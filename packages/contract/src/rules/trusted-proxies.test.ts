import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from './trusted-proxies';

describe('TRUSTED_PROXIES', () => {
  it.each([undefined, '', '  ', 'none', 'NONE'])('%j trusts nobody', (value) => {
    expect(parseTrustedProxies(value)).toEqual({ ok: true, value: false });
  });

  it('takes a hop count from 1 to 10', () => {
    expect(parseTrustedProxies('1')).toEqual({ ok: true, value: 1 });
    expect(parseTrustedProxies(' 3 ')).toEqual({ ok: true, value: 3 });
    expect(parseTrustedProxies('0').ok).toBe(false);
    expect(parseTrustedProxies('11').ok).toBe(false);
  });

  it('takes addresses, ranges and proxy-addr names', () => {
    expect(
      parseTrustedProxies('10.0.0.1, 172.16.0.0/12,loopback, ::1, fd00::/8, uniquelocal'),
    ).toEqual({
      ok: true,
      value: ['10.0.0.1', '172.16.0.0/12', 'loopback', '::1', 'fd00::/8', 'uniquelocal'],
    });
  });

  it.each([
    'true',
    'false',
    '10.0.0',
    '10.0.0.256',
    '10.0.0.0/33',
    '::1/129',
    'proxy.internal',
    '10.0.0.1/8/1',
    ',',
    '1.5',
  ])('refuses %j in words', (value) => {
    const parsed = parseTrustedProxies(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toMatch(/^must be none, a number of hops/);
  });
});
