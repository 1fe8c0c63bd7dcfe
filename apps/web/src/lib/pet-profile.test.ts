import { describe, expect, it } from 'vitest';
import {
  applicationsInReviewText,
  formatArrivalDate,
  profileFacts,
  profileLine,
  storyParagraphs,
} from './pet-profile';

const today = new Date('2026-11-23T12:00:00Z');
const unknown = { age: null, sex: null, size: null, arrivedAt: null };

describe('profileLine', () => {
  it('says what is known in plain words, in the order people ask', () => {
    expect(
      profileLine({ age: 'young', sex: 'female', size: 'medium', arrivedAt: '2026-03-03' }, today),
    ).toBe('Young · Female · Medium · Arrived 3 March');
    expect(profileLine({ ...unknown, size: 'xlarge', age: 'senior' }, today)).toBe(
      'Senior · Extra large',
    );
  });

  it('leaves out what is not known, "unknown" sex included', () => {
    expect(profileLine(unknown, today)).toBe('');
    expect(profileFacts({ ...unknown, sex: 'unknown', age: 'baby' }, today)).toEqual(['Baby']);
  });
});

describe('formatArrivalDate', () => {
  it('gives the year only when it is not this year', () => {
    expect(formatArrivalDate('2026-11-23', today)).toBe('23 November');
    expect(formatArrivalDate('2025-12-31', today)).toBe('31 December 2025');
  });

  it('reads the date as a calendar day, whatever the time zone of the server', () => {
    expect(formatArrivalDate('2026-01-01', today)).toBe('1 January');
  });

  it('decides what "this year" is by the store\'s calendar', () => {
    // 23:30 UTC on New Year's Eve is already 2027 in Paris, still 2026 in London.
    const newYearsEve = new Date('2026-12-31T23:30:00Z');
    expect(formatArrivalDate('2026-12-30', newYearsEve, 'Europe/London')).toBe('30 December');
    expect(formatArrivalDate('2026-12-30', newYearsEve, 'Europe/Paris')).toBe('30 December 2026');
  });

  it('is undefined for anything but a real YYYY-MM-DD date', () => {
    expect(formatArrivalDate('2026-02-30', today)).toBeUndefined();
    expect(formatArrivalDate('3 March', today)).toBeUndefined();
    expect(formatArrivalDate('2026-03-03T00:00:00Z', today)).toBeUndefined();
  });
});

describe('storyParagraphs', () => {
  it('splits on blank lines and keeps single line breaks inside a paragraph', () => {
    expect(storyParagraphs('Loves walks.\nAnd naps.\n\n  \r\nGood with cats.')).toEqual([
      'Loves walks.\nAnd naps.',
      'Good with cats.',
    ]);
  });

  it('is empty when there is no story', () => {
    expect(storyParagraphs(null)).toEqual([]);
    expect(storyParagraphs('  \n\n ')).toEqual([]);
  });
});

describe('applicationsInReviewText', () => {
  it('counts the applications in review, one or many, without names', () => {
    expect(applicationsInReviewText(1)).toBe('1 application in review');
    expect(applicationsInReviewText(3)).toBe('3 applications in review');
  });
});
