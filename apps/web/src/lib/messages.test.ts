import { describe, expect, it } from 'vitest';
import { waitInWords } from './messages';

describe('waitInWords', () => {
  it('says a wait as people do: seconds, minutes, then hours', () => {
    expect(waitInWords(1)).toBe('1 second');
    expect(waitInWords(40)).toBe('40 seconds');
    expect(waitInWords(60)).toBe('1 minute');
    expect(waitInWords(3_120)).toBe('52 minutes');
    expect(waitInWords(5_400)).toBe('90 minutes');
    // A day's limit: hours, not 1,200 minutes.
    expect(waitInWords(72_000)).toBe('20 hours');
  });
});
