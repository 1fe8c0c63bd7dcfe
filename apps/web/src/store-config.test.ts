import { describe, expect, it } from 'vitest';
import { parseStoreConfig, StoreConfigError } from './store-config';

describe('parseStoreConfig', () => {
  it('has defaults for everything, so a fresh start shows a real-looking store', () => {
    const config = parseStoreConfig({});
    expect(config.address).toMatch(/\w/);
    expect(config.openingHours).toMatch(/\w/);
    expect(config.replyDays).toBe(3);
  });

  it('takes the address, the opening hours and the reply days from the environment', () => {
    expect(
      parseStoreConfig({
        STORE_ADDRESS: ' 1 High Street, Townsville ',
        STORE_OPENING_HOURS: 'Every day, 9:00 to 18:00',
        STORE_REPLY_DAYS: '5',
      }),
    ).toEqual({
      address: '1 High Street, Townsville',
      openingHours: 'Every day, 9:00 to 18:00',
      replyDays: 5,
    });
  });

  it('treats an empty variable as unset', () => {
    expect(parseStoreConfig({ STORE_ADDRESS: '  ', STORE_REPLY_DAYS: '' }).replyDays).toBe(3);
  });

  it('names the variable and the problem in one line', () => {
    expect(() => parseStoreConfig({ STORE_REPLY_DAYS: 'soon' })).toThrow(StoreConfigError);
    expect(() => parseStoreConfig({ STORE_REPLY_DAYS: '0' })).toThrow(
      'Invalid configuration: STORE_REPLY_DAYS must be between 1 and 30',
    );
    expect(() => parseStoreConfig({ STORE_ADDRESS: 'x'.repeat(201) })).toThrow(/STORE_ADDRESS/);
  });
});
