import { describe, expect, it } from 'vitest';
import {
  everyKindSummary,
  matchAlertFilter,
  matchSearch,
  parseMatchAnswers,
  rankedSummary,
  rankMatches,
  reasonsFor,
  scoreOf,
  type TMatchAnswers,
} from './match';

const UNKNOWN = {
  age: null,
  size: null,
  energyLevel: null,
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
  houseTrained: null,
  specialNeeds: null,
} as const;

type TTestPet = { id: number; name: string } & Omit<Parameters<typeof reasonsFor>[0], 'id'>;

const pet = (id: number, name: string, details: Partial<TTestPet> = {}): TTestPet => ({
  ...UNKNOWN,
  id,
  name,
  ...details,
});

const names = (pets: TTestPet[], answers: TMatchAnswers) =>
  rankMatches(pets, answers).map((match) => match.pet.name);

describe('the answers in the address', () => {
  it('reads each answer on offer and ignores the rest', () => {
    expect(
      parseMatchAnswers({
        home: 'flat',
        children: 'young',
        pets: ['cats', 'parrots'],
        time: 'sometimes',
        activity: 'calm',
        experience: 'first',
      }),
    ).toEqual({
      home: 'flat',
      children: 'young',
      pets: ['cats'],
      activity: 'calm',
      experience: 'first',
    });
  });

  it('reads the kind: any, or a category the store has', () => {
    expect(parseMatchAnswers({ kind: 'any' })).toEqual({ kind: 'any' });
    expect(parseMatchAnswers({ kind: '3', home: 'flat' }, [1, 3])).toEqual({
      kind: 3,
      home: 'flat',
    });
    // A category the store does not have, or not an id: not answered.
    expect(parseMatchAnswers({ kind: '7' }, [1, 3])).toEqual({});
    expect(parseMatchAnswers({ kind: 'dogs' })).toEqual({});
    expect(parseMatchAnswers({ kind: '0' })).toEqual({});
    expect(matchSearch({ home: 'flat', kind: 3 })).toBe('?kind=3&home=flat');
  });

  it('tells "no other animals" from "not answered"', () => {
    expect(parseMatchAnswers({ pets: 'none' })).toEqual({ pets: [] });
    expect(parseMatchAnswers({})).toEqual({});
    expect(parseMatchAnswers({ pets: 'hamsters' })).toEqual({});
  });

  it('writes them back in the questions’ order, and round-trips', () => {
    const answers: TMatchAnswers = {
      experience: 'some',
      pets: ['dogs', 'cats'],
      home: 'garden',
      children: 'none',
    };
    const search = matchSearch(answers);
    expect(search).toBe('?home=garden&children=none&pets=dogs&pets=cats&experience=some');
    const params = new URLSearchParams(search);
    expect(
      parseMatchAnswers({ ...Object.fromEntries(params), pets: params.getAll('pets') }),
    ).toEqual(answers);
    expect(matchSearch({ pets: [] })).toBe('?pets=none');
    expect(matchSearch({})).toBe('');
  });
});

describe('the ranking', () => {
  it('puts a cat-friendly animal first for a home with cats, and says why', () => {
    const pets = [
      pet(3, 'Rex', { goodWithCats: false }),
      pet(2, 'Mittens', { goodWithCats: true }),
      pet(1, 'Shadow'),
    ];
    const ranked = rankMatches(pets, { pets: ['cats'] });
    expect(ranked.map((match) => match.pet.name)).toEqual(['Mittens', 'Shadow', 'Rex']);
    expect(ranked[0]?.reasons).toEqual([{ kind: 'fit', text: 'Good with cats' }]);
    expect(ranked[1]?.reasons).toEqual([
      { kind: 'unknown', text: 'Not known yet: how it is with cats' },
    ]);
    expect(ranked[2]?.reasons).toEqual([
      { kind: 'concern', text: 'Best without cats: you have a cat' },
    ]);
  });

  it('ranks unknowns after known fits even when they score alike, and hides nobody', () => {
    const pets = [
      pet(5, 'Known', { goodWithDogs: true, energyLevel: 'low' }),
      pet(6, 'Half known', { goodWithDogs: true }),
      pet(7, 'Clash', { goodWithDogs: true, energyLevel: 'high' }),
    ];
    expect(names(pets, { pets: ['dogs'], activity: 'calm' })).toEqual([
      'Known',
      'Half known',
      'Clash',
    ]);
  });

  it('says "needs a garden: you said a flat" for a lively animal, and fits a small calm one', () => {
    expect(reasonsFor(pet(1, 'Bolt', { energyLevel: 'high' }), { home: 'flat' })).toEqual([
      { kind: 'concern', text: 'Needs a garden and room to run: you said a flat' },
    ]);
    expect(reasonsFor(pet(2, 'Pip', { size: 'small' }), { home: 'flat' })).toEqual([
      { kind: 'fit', text: 'Happy in a flat' },
    ]);
    expect(reasonsFor(pet(3, 'Moose', { size: 'xlarge' }), { home: 'rural' })).toEqual([
      { kind: 'fit', text: 'Has the room it needs: you have outdoor space' },
    ]);
  });

  it('weighs time at home, experience and house-training', () => {
    const puppy = pet(1, 'Puppy', { age: 'baby', houseTrained: false });
    expect(reasonsFor(puppy, { time: 'away', experience: 'first' }).map((r) => r.kind)).toEqual([
      'concern',
      'concern',
    ]);
    expect(reasonsFor(puppy, { time: 'home' })).toEqual([
      { kind: 'fit', text: 'Young, and you are at home to bring it up' },
    ]);
    const needs = pet(2, 'Tripod', { specialNeeds: true, houseTrained: true });
    expect(scoreOf(reasonsFor(needs, { experience: 'first' }))).toBeLessThan(0);
    expect(reasonsFor(needs, { experience: 'experienced' })).toEqual([
      { kind: 'fit', text: 'Has special needs, and you have the experience' },
    ]);
  });

  it('with nothing answered, keeps the newest first', () => {
    expect(names([pet(1, 'Old'), pet(9, 'New'), pet(4, 'Mid')], {})).toEqual(['New', 'Mid', 'Old']);
  });
});

describe('what was ranked', () => {
  it('says so in words when more animals are available than were ranked', () => {
    expect(rankedSummary(100, true, 143)).toBe(
      'We ranked the 100 newest of the 143 animals available for adoption.',
    );
    expect(rankedSummary(100, true)).toBe(
      'We ranked the 100 newest animals available for adoption; there are more.',
    );
    expect(rankedSummary(30, false, 30)).toBe('We ranked all 30 animals available for adoption.');
    expect(rankedSummary(1, false)).toBe('We ranked the one animal available for adoption.');
  });

  it('names the kind chosen, and says when every kind is ranked together', () => {
    expect(rankedSummary(12, false, 12, 'dogs')).toBe(
      'We ranked all 12 dogs available for adoption.',
    );
    expect(rankedSummary(1, false, 1, 'fish')).toBe(
      'We ranked the only one of the fish available for adoption.',
    );
    expect(everyKindSummary({ kind: 2 })).toBeUndefined();
    expect(everyKindSummary({ kind: 'any' })).toMatch(
      /^You chose any kind of animal, so every kind/,
    );
    expect(everyKindSummary({ home: 'flat' })).toMatch(/^You did not say which kind of animal/);
  });
});

describe('matchAlertFilter', () => {
  it('saves only the clear musts of the answers as listPets filters', () => {
    expect(
      matchAlertFilter(
        parseMatchAnswers({ children: 'young', pets: ['cats', 'dogs'], home: 'flat' }),
      ),
    ).toEqual({ goodWithChildren: true, goodWithDogs: true, goodWithCats: true });
    expect(matchAlertFilter(parseMatchAnswers({ children: 'none', pets: 'none' }))).toEqual({});
    expect(matchAlertFilter(parseMatchAnswers({ activity: 'active', time: 'home' }))).toEqual({});
    // The kind chosen narrows the alert; any kind does not.
    expect(matchAlertFilter(parseMatchAnswers({ kind: '2', pets: 'cats' }))).toEqual({
      categoryId: 2,
      goodWithCats: true,
    });
    expect(matchAlertFilter(parseMatchAnswers({ kind: 'any' }))).toEqual({});
  });
});
