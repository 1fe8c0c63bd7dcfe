import { describe, expect, it } from 'vitest';
import { checkNewPassword, checkReset, checkSignIn } from './account-form-fields';
import { fieldErrorsOf, issuesOfApi } from './form-issues';
import { readFormValues, withoutSecrets } from './form-values';
import {
  checkEndpoint,
  checkKey,
  checkSignUp,
  ENDPOINT_WORDS,
  KEY_WORDS,
  SIGN_UP_WORDS,
  TAKEN_EMAIL,
} from './portal-form-checks';
import { EMPTY_ENDPOINT, EMPTY_KEY, EMPTY_SIGN_UP } from './portal-form-fields';

/** Every message a form shows: never the validator's text, its field's path or a code. */
const expectWords = (messages: (string | undefined)[]) => {
  for (const message of messages) {
    expect(message).toMatch(/^[A-Z].*[.:]$/);
    expect(message).not.toMatch(/body\.|must be an|invalid_request|String must/);
  }
};

describe("the API's 400 details under the fields (form-issues.ts)", () => {
  it('says an address the API refused in words, under the address', () => {
    const errors = fieldErrorsOf(
      issuesOfApi([{ field: 'body.url', message: 'must be an https URL' }]),
      ENDPOINT_WORDS,
    );
    expect(errors).toEqual({
      url: 'Use an address that starts with https://, such as https://example.org/hooks/pets.',
    });
  });

  it('names each refusal of the address the API can give in words', () => {
    const refusals = [
      'must be an absolute URL',
      'must be an https URL',
      'must be an http or https URL',
      'must not contain a user name or password',
      'must be a public address: 10.0.0.1 is a loopback, private, link-local or reserved address',
      'must be at most 2048 characters',
    ];
    const said = refusals.map(
      (message) => fieldErrorsOf(issuesOfApi([{ field: 'url', message }]), ENDPOINT_WORDS).url,
    );
    expectWords(said);
    expect(new Set(said).size).toBe(refusals.length);
  });

  it('keeps the first problem of a field, maps renamed inputs and leaves unknown ones out', () => {
    const errors = fieldErrorsOf(
      issuesOfApi([
        { field: 'expiresAt', message: 'the expiry must be at most 365 days ahead' },
        { field: 'expiresAt', message: 'the expiry must be in the future' },
        { field: 'colour', message: 'is not a known field' },
      ]),
      KEY_WORDS,
    );
    expect(errors).toEqual({ expiresOn: 'Choose an expiry date at most 365 days ahead.' });
  });

  it("says the API's taken address and a password that is the address in the form's words", () => {
    const errors = fieldErrorsOf(
      issuesOfApi([
        { field: 'email', message: 'An account with this email address exists already.' },
        { field: 'password', message: 'The password must not be the email address.' },
      ]),
      SIGN_UP_WORDS,
    );
    expect(errors).toEqual({
      email: TAKEN_EMAIL,
      password: 'Choose a password that is not your email address.',
    });
  });
});

describe('the portal forms’ checks (portal-form-checks.ts)', () => {
  it('an endpoint: the key, the address and the events, each under its field', () => {
    const check = checkEndpoint({ ...EMPTY_ENDPOINT, url: 'not an address' });
    expect(check).toEqual({
      success: false,
      fieldErrors: {
        keyId: 'Choose the key the endpoint belongs to.',
        url: 'Enter the whole address, such as https://example.org/hooks/pets.',
        events: 'Choose at least one kind of event, or every event.',
      },
    });
  });

  it('an endpoint: "every event" stands for all, the note is trimmed', () => {
    expect(
      checkEndpoint({
        keyId: '7',
        url: ' https://example.org/hooks ',
        events: ['pet.created', '*'],
        description: '  Our widget ',
      }),
    ).toEqual({
      success: true,
      data: {
        keyId: '7',
        endpoint: { url: 'https://example.org/hooks', events: ['*'], description: 'Our widget' },
      },
    });
  });

  it('a key: an expiry in the past or too far ahead, and no name', () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    expect(checkKey({ ...EMPTY_KEY, expiresOn: '2026-11-30' }, now)).toEqual({
      success: false,
      fieldErrors: {
        name: 'Give the key a name, such as “Shelter app”.',
        expiresOn: 'Choose an expiry date from today on, or leave it empty.',
      },
    });
    expect(checkKey({ ...EMPTY_KEY, name: 'CI', expiresOn: '2028-01-01' }, now)).toEqual({
      success: false,
      fieldErrors: { expiresOn: 'Choose an expiry date at most 365 days ahead.' },
    });
    expect(
      checkKey({ name: ' CI ', mode: 'live', readOnly: 'on', expiresOn: '2026-12-01' }, now),
    ).toEqual({
      success: true,
      data: { name: 'CI', mode: 'live', readOnly: true, expiresAt: '2026-12-01T23:59:59.000Z' },
    });
  });

  it('sign up: every field in words', () => {
    const check = checkSignUp({ ...EMPTY_SIGN_UP, email: 'nobody', password: 'short' });
    expect(check.success).toBe(false);
    if (!check.success) {
      expect(Object.keys(check.fieldErrors)).toEqual([
        'email',
        'password',
        'name',
        'organizationName',
      ]);
      expectWords(Object.values(check.fieldErrors));
    }
  });
});

describe('sign in and the password forms (account-form-fields.ts)', () => {
  it('says each missing or wrong field under it', () => {
    expect(checkSignIn({ email: ' ', password: '' })).toEqual({
      success: false,
      fieldErrors: { email: 'Enter your email address.', password: 'Enter your password.' },
    });
    expect(checkReset({ email: 'nobody' })).toEqual({
      success: false,
      fieldErrors: { email: 'Enter the email address you sign in with.' },
    });
    expect(checkNewPassword({ password: 'short', repeat: 'short' })).toEqual({
      success: false,
      fieldErrors: { password: 'Choose a password of 10 to 200 characters.' },
    });
    expect(checkNewPassword({ password: 'a long password', repeat: 'a long passwort' })).toEqual({
      success: false,
      fieldErrors: { repeat: 'The two passwords are not the same.' },
    });
    expect(checkNewPassword({ password: 'a long password', repeat: 'a long password' })).toEqual({
      success: true,
    });
  });
});

describe('what a refused form shows again (form-values.ts)', () => {
  it('reads texts and lists, bounded, and never sends a secret back', () => {
    const data = new FormData();
    data.append('url', 'ftp://example.org/hooks');
    data.append('events', 'pet.created');
    data.append('events', 'pet.status_changed');
    data.append('keyId', 'x'.repeat(20_000));
    data.append('other', 'ignored');
    const values = readFormValues(data, EMPTY_ENDPOINT);
    expect(values).toEqual({
      keyId: 'x'.repeat(10_000),
      url: 'ftp://example.org/hooks',
      events: ['pet.created', 'pet.status_changed'],
      description: '',
    });
    expect(
      withoutSecrets({ ...EMPTY_SIGN_UP, email: 'a@b.org', password: 'secret' }, ['password']),
    ).toEqual({
      ...EMPTY_SIGN_UP,
      email: 'a@b.org',
    });
  });
});
