import { describe, expect, it } from 'vitest';
import { nextCursorOf, nextLinkOf, nextLinkTarget, nextPageLink, parseLinkHeader } from './link';

const BASE = 'http://localhost:4000/v1';

describe('nextPageLink', () => {
  it('keeps the path, limit and filters, replaces the cursor and skips absent values', () => {
    expect(
      nextPageLink(
        '/v1/pets',
        { limit: 20, status: 'sold', categoryId: undefined, cursor: 'old' },
        'djE6MjI',
      ),
    ).toBe('</v1/pets?limit=20&status=sold&cursor=djE6MjI>; rel="next"');
  });

  it('sends a list value (the id filter) comma-separated', () => {
    expect(nextPageLink('/v1/pets', { limit: 2, id: [9, 4] }, 'x')).toBe(
      '</v1/pets?limit=2&id=9%2C4&cursor=x>; rel="next"',
    );
  });

  it('is read back by the parser', () => {
    const header = nextPageLink('/v1/pets', { limit: 5, categoryId: 3 }, 'djE6MjI');
    expect(nextLinkTarget(header)).toBe('/v1/pets?limit=5&categoryId=3&cursor=djE6MjI');
    expect(nextCursorOf(header)).toBe('djE6MjI');
  });
});

describe('parseLinkHeader', () => {
  it('lists every link with its relation types', () => {
    expect(
      parseLinkHeader(
        '</v1/pets>; rel="successor-version", </v1/pets?cursor=x>; rel="prefetch next"',
      ),
    ).toEqual([
      { target: '/v1/pets', relations: ['successor-version'] },
      { target: '/v1/pets?cursor=x', relations: ['prefetch', 'next'] },
    ]);
  });

  it('is empty for a missing or unreadable header', () => {
    expect(parseLinkHeader(null)).toEqual([]);
    expect(parseLinkHeader(undefined)).toEqual([]);
    expect(parseLinkHeader('')).toEqual([]);
    expect(parseLinkHeader('garbage')).toEqual([]);
  });
});

describe('nextLinkOf', () => {
  it('reads a relative rel="next" link against the API address', () => {
    const next = nextLinkOf('</v1/pets?limit=20&cursor=eyJpZCI6MjJ9>; rel="next"', BASE);
    expect(next?.href).toBe('http://localhost:4000/v1/pets?limit=20&cursor=eyJpZCI6MjJ9');
    expect(next?.searchParams.get('cursor')).toBe('eyJpZCI6MjJ9');
  });

  it('finds next among several links, unquoted or with several relation types', () => {
    const header =
      '<https://api.example.org/v1/pets>; rel="successor-version", ' +
      '<https://api.example.org/v1/pets?cursor=a%2Cb>; title="more, please"; rel="prefetch next"';
    expect(nextLinkOf(header, BASE)?.searchParams.get('cursor')).toBe('a,b');
    expect(nextLinkOf('</v1/pets?cursor=x>; rel=next', BASE)?.searchParams.get('cursor')).toBe('x');
    expect(nextLinkOf('</v1/pets?cursor=x>; REL="Next"', BASE)?.searchParams.get('cursor')).toBe(
      'x',
    );
  });

  it('is undefined without a next link', () => {
    expect(nextLinkOf(null, BASE)).toBeUndefined();
    expect(nextLinkOf('', BASE)).toBeUndefined();
    expect(nextLinkOf('</v1/pets>; rel="successor-version"', BASE)).toBeUndefined();
    expect(nextLinkOf('garbage', BASE)).toBeUndefined();
    expect(nextCursorOf('</v1/pets>; rel="successor-version"')).toBeUndefined();
  });
});
