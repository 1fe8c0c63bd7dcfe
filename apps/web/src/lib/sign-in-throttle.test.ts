import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle';

const limits = { windowMs: 60_000, perVisitor: 2, siteWide: 3 };

describe('SignInThrottle', () => {
  it('lets a visitor fail perVisitor times, then makes them wait for the window to end', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(limits, () => now);
    expect(throttle.secondsToWait('a')).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.secondsToWait('a')).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.secondsToWait('a')).toBe(60);
    now += 45_000;
    expect(throttle.secondsToWait('a')).toBe(15);
    expect(throttle.secondsToWait('b')).toBe(0);
    now += 15_000;
    expect(throttle.secondsToWait('a')).toBe(0);
  });

  it('stops everyone once the site as a whole has failed siteWide times', () => {
    let now = 0;
    const throttle = new SignInThrottle(limits, () => now);
    throttle.recordFailure('a');
    throttle.recordFailure('b');
    throttle.recordFailure('c');
    expect(throttle.secondsToWait('d')).toBe(60);
    now += 60_000;
    expect(throttle.secondsToWait('d')).toBe(0);
  });
});
