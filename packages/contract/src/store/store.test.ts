import { describe, expect, it } from 'vitest';
import {
  addressLines,
  formatStoreDate,
  formatStoreInstant,
  isTimeZone,
  mailtoHref,
  mapSearchUrl,
  parseStoreConfig,
  STORE_DEFAULTS,
  StoreConfigError,
  storeCalendarDate,
  telHref,
  timeZoneAbbreviation,
} from './index';

describe('parseStoreConfig', () => {
  it('has defaults for everything, so a fresh start shows a real-looking store', () => {
    expect(parseStoreConfig({})).toEqual({
      name: 'Kindred Paws',
      address: '12 Orchard Lane, Millbrook, MB1 2PA',
      openingHours: 'Tuesday to Saturday, 10:00 to 17:00',
      replyDays: 3,
      phone: '0161 496 0123',
      email: 'hello@kindredpaws.example',
      timeZone: 'Europe/London',
      adoptionFee: '£75 for a dog or a cat, £35 for a rabbit or a bird',
    });
    expect(STORE_DEFAULTS).toEqual(parseStoreConfig({}));
  });

  it('takes every detail from the environment, trimmed', () => {
    expect(
      parseStoreConfig({
        STORE_NAME: ' Harbour Rescue ',
        STORE_ADDRESS: ' 1 High Street, Townsville ',
        STORE_OPENING_HOURS: 'Every day, 9:00 to 18:00',
        STORE_REPLY_DAYS: '5',
        STORE_PHONE: '+1 (212) 555-0142',
        STORE_EMAIL: 'adopt@harbour.example.org',
        STORE_TIME_ZONE: 'America/New_York',
        STORE_ADOPTION_FEE: '$150, vaccinations included',
      }),
    ).toEqual({
      name: 'Harbour Rescue',
      address: '1 High Street, Townsville',
      openingHours: 'Every day, 9:00 to 18:00',
      replyDays: 5,
      phone: '+1 (212) 555-0142',
      email: 'adopt@harbour.example.org',
      timeZone: 'America/New_York',
      adoptionFee: '$150, vaccinations included',
    });
  });

  it('treats an empty or blank variable as unset, and ignores other variables', () => {
    const config = parseStoreConfig({
      STORE_NAME: '  ',
      STORE_TIME_ZONE: '',
      STORE_REPLY_DAYS: '',
      PATH: '/usr/bin',
    });
    expect(config.name).toBe('Kindred Paws');
    expect(config.timeZone).toBe('Europe/London');
    expect(config.replyDays).toBe(3);
  });

  it('takes any zone Intl knows, as written', () => {
    expect(parseStoreConfig({ STORE_TIME_ZONE: 'Asia/Kolkata' }).timeZone).toBe('Asia/Kolkata');
    expect(parseStoreConfig({ STORE_TIME_ZONE: 'UTC' }).timeZone).toBe('UTC');
  });

  it.each([
    ['STORE_TIME_ZONE', 'Mars/Olympus_Mons', 'must be an IANA time zone such as Europe/London'],
    ['STORE_TIME_ZONE', '+01:00', 'must be an IANA time zone'],
    ['STORE_TIME_ZONE', 'GMT+1 please', 'must be an IANA time zone'],
    ['STORE_EMAIL', 'hello at example.org', 'must be an email address'],
    ['STORE_EMAIL', `${'a'.repeat(250)}@example.org`, 'must be at most 254 characters'],
    ['STORE_PHONE', 'call us', 'must be digits, spaces and ( ) - . with an optional leading +'],
    ['STORE_PHONE', '12', 'must be at least 3 characters'],
    ['STORE_PHONE', '1'.repeat(33), 'must be at most 32 characters'],
    ['STORE_NAME', 'x'.repeat(81), 'must be at most 80 characters'],
    ['STORE_NAME', 'Kindred\nPaws', 'must be one line'],
    ['STORE_ADDRESS', 'x'.repeat(201), 'must be at most 200 characters'],
    ['STORE_OPENING_HOURS', 'x'.repeat(201), 'must be at most 200 characters'],
    ['STORE_ADOPTION_FEE', 'x'.repeat(201), 'must be at most 200 characters'],
    ['STORE_REPLY_DAYS', 'soon', 'must be a whole number of days'],
    ['STORE_REPLY_DAYS', '0', 'must be between 1 and 30'],
    ['STORE_REPLY_DAYS', '2.5', 'must be a whole number of days'],
  ])('refuses %s=%j in one line naming the variable', (name, value, message) => {
    const parse = () => parseStoreConfig({ [name]: value });
    expect(parse).toThrow(StoreConfigError);
    expect(parse).toThrow(`Invalid configuration: ${name} ${message}`);
    // The value itself is never echoed (the message is the same for every bad value).
    expect(() => parse()).not.toThrow(value.length > 3 ? value : '\u0000');
  });
});

describe('isTimeZone', () => {
  it('knows IANA names and refuses offsets and nonsense', () => {
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('europe/london')).toBe(true);
    expect(isTimeZone('-05:00')).toBe(false);
    expect(isTimeZone('Nowhere/Land')).toBe(false);
  });
});

describe('formatStoreInstant', () => {
  it('shows the instant on the store clock with its zone', () => {
    expect(formatStoreInstant('2026-07-01T12:00:00.000Z', 'Europe/London')).toBe(
      '1 Jul 2026, 13:00 BST',
    );
    expect(formatStoreInstant('2026-11-26T18:05:00.000Z', 'Europe/London')).toBe(
      '26 Nov 2026, 18:05 GMT',
    );
    expect(formatStoreInstant(new Date('2026-11-26T18:05:00Z'), 'America/New_York')).toBe(
      '26 Nov 2026, 13:05 EST',
    );
    expect(formatStoreInstant('2026-11-26T18:05:00Z', 'Asia/Tokyo', { month: 'long' })).toBe(
      '27 November 2026, 03:05 GMT+9',
    );
    expect(formatStoreInstant(Date.UTC(2026, 0, 1, 0, 30), 'UTC')).toBe('1 Jan 2026, 00:30 UTC');
  });

  it('crosses a change to summer time as the store lives it', () => {
    // London: 01:00 GMT on 29 March 2026 becomes 02:00 BST; 00:59:59 UTC is still winter.
    expect(formatStoreInstant('2026-03-29T00:59:00Z', 'Europe/London')).toBe(
      '29 Mar 2026, 00:59 GMT',
    );
    expect(formatStoreInstant('2026-03-29T01:00:00Z', 'Europe/London')).toBe(
      '29 Mar 2026, 02:00 BST',
    );
    // Autumn: 01:30 happens twice in London on 25 October 2026; the zone tells the two apart.
    expect(formatStoreInstant('2026-10-25T00:30:00Z', 'Europe/London')).toBe(
      '25 Oct 2026, 01:30 BST',
    );
    expect(formatStoreInstant('2026-10-25T01:30:00Z', 'Europe/London')).toBe(
      '25 Oct 2026, 01:30 GMT',
    );
    // New York moves on 8 March 2026 at 02:00 local (07:00 UTC).
    expect(formatStoreInstant('2026-03-08T06:59:00Z', 'America/New_York')).toBe(
      '8 Mar 2026, 01:59 EST',
    );
    expect(formatStoreInstant('2026-03-08T07:00:00Z', 'America/New_York')).toBe(
      '8 Mar 2026, 03:00 EDT',
    );
  });

  it('refuses what is not an instant rather than printing "Invalid Date"', () => {
    expect(() => formatStoreInstant('soon', 'Europe/London')).toThrow(RangeError);
  });
});

describe('the store calendar', () => {
  it('says which day it is at the store, which may not be the day in UTC', () => {
    expect(storeCalendarDate('2026-12-31T23:30:00Z', 'Europe/London')).toBe('2026-12-31');
    expect(storeCalendarDate('2026-12-31T23:30:00Z', 'Europe/Paris')).toBe('2027-01-01');
    expect(storeCalendarDate('2027-01-01T03:00:00Z', 'America/Los_Angeles')).toBe('2026-12-31');
    expect(formatStoreDate('2026-12-31T23:30:00Z', 'Europe/Paris')).toBe('1 January 2027');
  });

  it('names Europe and North America by their abbreviations, elsewhere by the offset', () => {
    expect(timeZoneAbbreviation('2026-07-01T12:00:00Z', 'Europe/Paris')).toBe('CEST');
    expect(timeZoneAbbreviation('2026-07-01T12:00:00Z', 'America/Los_Angeles')).toBe('PDT');
    expect(timeZoneAbbreviation('2026-07-01T12:00:00Z', 'Asia/Kolkata')).toBe('GMT+5:30');
  });
});

describe('links to the store', () => {
  it('dials the digits, writes to the address, and searches a map for the address', () => {
    expect(telHref('+44 (0)161 496-0123')).toBe('tel:+4401614960123');
    expect(telHref('0161 496 0123')).toBe('tel:01614960123');
    expect(mailtoHref('hello@kindredpaws.example')).toBe('mailto:hello@kindredpaws.example');
    expect(mapSearchUrl('12 Orchard Lane, Millbrook, MB1 2PA')).toBe(
      'https://www.openstreetmap.org/search?query=12+Orchard+Lane%2C+Millbrook%2C+MB1+2PA',
    );
    expect(addressLines(' 12 Orchard Lane, Millbrook,, MB1 2PA ')).toEqual([
      '12 Orchard Lane',
      'Millbrook',
      'MB1 2PA',
    ]);
  });
});
