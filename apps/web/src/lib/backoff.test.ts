import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff';

describe('Backoff', () => {
  it('lets calls out until told to wait, then counts the seconds down', () => {
    let now = 1_000_000;
    const backoff = new Backoff(() => now);
    expect(backoff.secondsLeft()).toBe(0);
    backoff.holdFor(30);
    expect(backoff.secondsLeft()).toBe(30);
    now += 12_500;
    expect(backoff.secondsLeft()).toBe(18);
    now += 17_600;
    expect(backoff.secondsLeft()).toBe(0);
  });

  it('keeps the later of two holds', () => {
    let now = 0;
    const backoff = new Backoff(() => now);
    backoff.holdFor(60);
    backoff.holdFor(5);
    now += 10_000;
    expect(backoff.secondsLeft()).toBe(50);
  });
});
