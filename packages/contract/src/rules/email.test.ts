import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi';
import { ZAdopter } from '../schemas/order';
import { ZOrderLinksRequest } from '../schemas/order-link';
import { ZSaveSearchRequest, ZSignInRequest, ZSignUpRequest } from '../site/schemas';
import { parseStoreConfig } from '../store/config';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, isEmailAddress } from './email';

/** Addresses of every kind people and programs send: the first admin's among them. */
const ADDRESSES_ACCEPTED = [
  'admin@localhost',
  'ada@example.org',
  'Ada.Lovelace@Example.ORG',
  'ada+pets@mail.example.co.uk',
  "o'brien@example.ie",
  'a!#$%&*+/=?^_`{|}~-z@example.org',
  '0@com',
  'x@a-b.c',
  'root@127.0.0.1',
  `x@${'a'.repeat(63)}.org`,
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
];

const ADDRESSES_REFUSED = [
  '',
  'ada',
  '@example.org',
  'ada@',
  'ada@@example.org',
  'a@b@example.org',
  'a..b@example.org',
  '.ada@example.org',
  'ada.@example.org',
  'ada@-example.org',
  'ada@example-.org',
  'ada@example..org',
  'ada@.example.org',
  'ada@example.org.',
  'ada@exa_mple.org',
  '"ada lovelace"@example.org',
  'ada@[127.0.0.1]',
  'adà@example.org',
  'ada@exämple.org',
  'ada lovelace@example.org',
  ' ada@example.org',
  'ada@example.org ',
  'ada@example.org\n',
  'Ada <ada@example.org>',
  `x@${'a'.repeat(64)}.org`,
  `${'a'.repeat(65)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
];

describe('the rule for email addresses', () => {
  it('accepts an address at a single-label domain, such as the first admin admin@localhost', () => {
    for (const address of ADDRESSES_ACCEPTED) {
      expect(isEmailAddress(address), address).toBe(true);
    }
    expect(ADDRESSES_ACCEPTED.at(-1)).toHaveLength(EMAIL_MAX_LENGTH);
  });

  it('refuses what is not one address, exactly as sent', () => {
    for (const address of ADDRESSES_REFUSED) {
      expect(isEmailAddress(address), address).toBe(false);
    }
    expect(ADDRESSES_REFUSED.at(-1)).toHaveLength(EMAIL_MAX_LENGTH + 1);
  });

  it('is the rule of every schema that takes an address, the API’s, the site’s and the store’s', () => {
    const schemas = {
      adopter: (email: string) => ZAdopter.safeParse({ name: 'Ada', email }).success,
      orderLinks: (email: string) => ZOrderLinksRequest.safeParse({ email }).success,
      signIn: (email: string) =>
        ZSignInRequest.safeParse({ email, password: 'x', area: 'staff' }).success,
      signUp: (email: string) =>
        ZSignUpRequest.safeParse({
          email,
          password: 'a long passphrase',
          name: 'Ada',
          organizationName: 'Ada Apps',
        }).success,
      savedSearch: (email: string) => ZSaveSearchRequest.safeParse({ email, filter: {} }).success,
    };
    for (const address of [...ADDRESSES_ACCEPTED, ...ADDRESSES_REFUSED]) {
      for (const [name, accepts] of Object.entries(schemas)) {
        expect(accepts(address), `${name}: ${JSON.stringify(address)}`).toBe(
          isEmailAddress(address),
        );
      }
    }
    // The store's variable is read as configuration is: spaces around it are not part of it.
    expect(parseStoreConfig({ STORE_EMAIL: 'desk@localhost' }).email).toBe('desk@localhost');
    expect(() => parseStoreConfig({ STORE_EMAIL: 'a..b@example.org' })).toThrow(
      'Invalid configuration: STORE_EMAIL must be an email address such as hello@example.org',
    );
  });

  it('is what the OpenAPI document says of every address: its pattern and length, no format', () => {
    const document = JSON.stringify(buildOpenApiDocument());
    const schemas: Record<string, unknown>[] = [];
    JSON.parse(document, (key, value) => {
      if (key === 'email' && typeof value === 'object' && value !== null && 'type' in value) {
        schemas.push(value);
      }
      return value;
    });
    // The adopter's (placeOrder, every order) and sendOrderLinks' request.
    expect(schemas.length).toBeGreaterThanOrEqual(2);
    for (const schema of schemas) {
      expect(schema).toEqual({
        type: 'string',
        maxLength: EMAIL_MAX_LENGTH,
        pattern: EMAIL_PATTERN.source,
        description: expect.any(String),
      });
      // As a JSON Schema validator reads it: maxLength in code points, the pattern unanchored
      // ECMA-262 (ajv and Prism compile it with the `u` flag).
      for (const flags of ['', 'u']) {
        const pattern = new RegExp(String(schema.pattern), flags);
        const documentAccepts = (text: string) =>
          [...text].length <= Number(schema.maxLength) && pattern.test(text);
        for (const address of [...ADDRESSES_ACCEPTED, ...ADDRESSES_REFUSED]) {
          expect(documentAccepts(address), JSON.stringify(address)).toBe(isEmailAddress(address));
        }
      }
    }
  });
});
