import { describe, expect, it } from 'vitest';
import { backToListHref, backToMatchesHref, matchPetHref, parsePetId, petHref } from './pet-links';

describe('petHref', () => {
  it('remembers the list it was opened from', () => {
    expect(petHref(7)).toBe('/pets/7');
    expect(petHref(7, '')).toBe('/pets/7');
    expect(petHref(7, '?status=pending&category=2')).toBe(
      '/pets/7?from=status%3Dpending%26category%3D2',
    );
  });
});

describe('backToListHref', () => {
  it('rebuilds the list address from `from`', () => {
    expect(backToListHref('status=pending&category=2')).toBe('/?status=pending&category=2');
    expect(backToListHref(undefined)).toBe('/');
    expect(backToListHref(['status=sold', 'status=all'])).toBe('/?status=sold');
  });

  it('only ever leads to the list of this site', () => {
    expect(backToListHref('//evil.example/path')).toBe('/');
    expect(backToListHref('https://evil.example')).toBe('/');
    expect(backToListHref('status=sold&next=https://evil.example')).toBe('/?status=sold');
  });
});

describe('the way back to "Find your match"', () => {
  it('keeps the answers and rebuilds them, always to /match', () => {
    const href = matchPetHref(7, '?home=flat&pets=cats');
    expect(href).toBe('/pets/7?match=home%3Dflat%26pets%3Dcats');
    const match = new URL(href, 'http://site').searchParams.get('match') ?? undefined;
    expect(backToMatchesHref(match)).toBe('/match?home=flat&pets=cats');
    expect(backToMatchesHref(undefined)).toBeUndefined();
    expect(backToMatchesHref('//evil.example/path')).toBe('/match');
    expect(backToMatchesHref('pets=cats&next=https://evil.example')).toBe('/match?pets=cats');
  });
});

describe('parsePetId', () => {
  it('accepts positive decimal integers within the API range', () => {
    expect(parsePetId('1')).toBe(1);
    expect(parsePetId('9007199254740991')).toBe(9007199254740991);
  });

  it('rejects anything else', () => {
    for (const value of ['0', '-1', '01', '1.5', '1e3', 'abc', '', '9007199254740992', ' 1']) {
      expect(parsePetId(value)).toBeUndefined();
    }
  });
});
