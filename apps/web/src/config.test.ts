import { describe, expect, it } from 'vitest';
import { ConfigError, parseWebConfig } from './config';
import { DEFAULT_VISITOR_LIMITS } from './edge/visitor-limits';

const KEY = 'pets_live_0123456789abcdefghijklmnopqrstuv';
const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('parseWebConfig', () => {
  it('defaults API_URL to the local API and splits off /v1 for the client', () => {
    expect(parseWebConfig({ WEB_API_KEY: KEY, SESSION_SECRET: SECRET })).toEqual({
      apiUrl: 'http://localhost:4000/v1',
      apiBaseUrl: 'http://localhost:4000',
      // The API's own default: its /media, where API_URL says it is.
      mediaBaseUrl: 'http://localhost:4000/media',
      apiKey: KEY,
      sessionSecret: SECRET,
      siteOrigin: undefined,
      isHttps: false,
      trustedProxies: false,
      redisUrl: undefined,
      redisKeyPrefix: 'pets:web:',
      limits: DEFAULT_VISITOR_LIMITS,
      staffSessionIdleSeconds: 3_600,
      publicCacheSeconds: 30,
    });
  });

  it('takes SITE_URL as the origin that decides HTTPS, never a header', () => {
    const config = parseWebConfig({
      WEB_API_KEY: KEY,
      SESSION_SECRET: SECRET,
      SITE_URL: 'https://adopt.example.org/',
    });
    expect(config.siteOrigin).toBe('https://adopt.example.org');
    expect(config.isHttps).toBe(true);
    expect(() =>
      parseWebConfig({ WEB_API_KEY: KEY, SESSION_SECRET: SECRET, SITE_URL: 'https://a.example/x' }),
    ).toThrow('Invalid configuration: SITE_URL must be an origin');
  });

  it('reads TRUSTED_PROXIES with the rule the API uses, and refuses a bad one in one line', () => {
    expect(
      parseWebConfig({ WEB_API_KEY: KEY, SESSION_SECRET: SECRET, TRUSTED_PROXIES: '2' })
        .trustedProxies,
    ).toBe(2);
    expect(() =>
      parseWebConfig({ WEB_API_KEY: KEY, SESSION_SECRET: SECRET, TRUSTED_PROXIES: 'yes' }),
    ).toThrow('Invalid configuration: TRUSTED_PROXIES must be none, a number of hops');
  });

  it('overrides visitor limits by name, and refuses an unknown one', () => {
    const { limits } = parseWebConfig({
      WEB_API_KEY: KEY,
      SESSION_SECRET: SECRET,
      VISITOR_LIMITS: 'page=600/60, sign-in=10/900',
    });
    expect(limits.page).toEqual({ points: 600, seconds: 60 });
    expect(limits['sign-in']).toEqual({ points: 10, seconds: 900 });
    expect(limits.lookup).toEqual(DEFAULT_VISITOR_LIMITS.lookup);
    expect(() =>
      parseWebConfig({ WEB_API_KEY: KEY, SESSION_SECRET: SECRET, VISITOR_LIMITS: 'pages=1/1' }),
    ).toThrow('Invalid configuration: VISITOR_LIMITS must be name=points/seconds pairs');
  });

  it('accepts an API behind a path prefix, with or without a trailing slash', () => {
    const config = parseWebConfig({
      API_URL: 'https://example.org/pets-api/v1/',
      WEB_API_KEY: KEY,
      SESSION_SECRET: SECRET,
    });
    expect(config.apiUrl).toBe('https://example.org/pets-api/v1');
    expect(config.apiBaseUrl).toBe('https://example.org/pets-api');
  });

  it('treats an empty variable as unset', () => {
    expect(parseWebConfig({ API_URL: '', WEB_API_KEY: KEY, SESSION_SECRET: SECRET }).apiUrl).toBe(
      'http://localhost:4000/v1',
    );
  });

  it('names the variable and the problem in one line', () => {
    expect(() => parseWebConfig({})).toThrow(
      new ConfigError(
        'Invalid configuration: WEB_API_KEY is required (the API key the site uses to call the API)',
      ),
    );
    expect(() => parseWebConfig({ WEB_API_KEY: '   ' })).toThrow(/WEB_API_KEY must not be empty/);
    expect(() => parseWebConfig({ WEB_API_KEY: KEY })).toThrow(/SESSION_SECRET is required/);
    expect(() => parseWebConfig({ WEB_API_KEY: KEY, SESSION_SECRET: 'short' })).toThrow(
      'Invalid configuration: SESSION_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)',
    );
    expect(() =>
      parseWebConfig({ API_URL: 'localhost:4000', WEB_API_KEY: KEY, SESSION_SECRET: SECRET }),
    ).toThrow(/API_URL must/);
    expect(() =>
      parseWebConfig({
        API_URL: 'http://localhost:4000',
        WEB_API_KEY: KEY,
        SESSION_SECRET: SECRET,
      }),
    ).toThrow('Invalid configuration: API_URL must end with /v1');
    expect(() =>
      parseWebConfig({ API_URL: 'ftp://host/v1', WEB_API_KEY: KEY, SESSION_SECRET: SECRET }),
    ).toThrow(/API_URL must start with http/);
  });
});
