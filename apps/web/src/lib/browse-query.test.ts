import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  browseHref,
  DEFAULT_BROWSE_QUERY,
  decodePosition,
  encodePosition,
  hasEmptyFilter,
  listPetsQueryOf,
  MAX_BACK_PAGES,
  nextPageQuery,
  PAGE_SIZES,
  parseBrowseQuery,
  parseNameSearch,
  previousPageQuery,
  toSearchParamsRecord,
  withFilters,
} from './browse-query';

const parse = (search: string) =>
  parseBrowseQuery(toSearchParamsRecord(new URLSearchParams(search)));

describe('parseBrowseQuery', () => {
  it('gives the defaults for an empty address: available animals, first page', () => {
    expect(parse('')).toEqual(DEFAULT_BROWSE_QUERY);
    expect(DEFAULT_BROWSE_QUERY.status).toBe('available');
    expect(DEFAULT_BROWSE_QUERY.limit).toBe(PAGE_SIZES[0]);
  });

  it('reads every filter and the position', () => {
    expect(parse('status=sold&category=3&limit=24&cursor=abc&back=&back=xyz')).toEqual({
      status: 'sold',
      categoryId: 3,
      limit: 24,
      position: { cursor: 'abc' },
      // The empty `back=` of older links (the first page) is implied, so dropped.
      back: [{ cursor: 'xyz' }],
      needs: [],
      sort: 'newest',
    });
    expect(parse('status=all').status).toBe('all');
  });

  it('falls back to defaults for values that make no sense instead of failing', () => {
    expect(parse('status=adopted&category=cats&limit=7&back=nonsense')).toEqual(
      DEFAULT_BROWSE_QUERY,
    );
    expect(parse('category=0').categoryId).toBeUndefined();
    expect(parse('category=1e3').categoryId).toBeUndefined();
    expect(parse('limit=1000').limit).toBe(DEFAULT_BROWSE_QUERY.limit);
    expect(parse(`cursor=${'x'.repeat(500)}`).position).toEqual({});
  });

  it('ignores a trail on the first page', () => {
    expect(parse('back=&back=abc').back).toEqual([]);
  });

  it('takes the first of repeated filters', () => {
    expect(parse('status=pending&status=sold').status).toBe('pending');
  });
});

describe('browseHref', () => {
  it('leaves defaults out, so the plain list is just /', () => {
    expect(browseHref(DEFAULT_BROWSE_QUERY)).toBe('/');
    expect(browseHref({ ...DEFAULT_BROWSE_QUERY, status: 'pending', categoryId: 2 })).toBe(
      '/?status=pending&category=2',
    );
  });

  it('round-trips through parseBrowseQuery', () => {
    const query = parse('status=all&category=5&limit=48&cursor=a%2Bb%3D&back=&back=q');
    expect(parse(browseHref(query).slice(2))).toEqual(query);
  });
});

describe('pages', () => {
  it('a filter change goes back to the first page', () => {
    const deep = parse('category=2&cursor=abc&back=');
    expect(browseHref(withFilters(deep, { status: 'pending' }))).toBe(
      '/?status=pending&category=2',
    );
  });

  it('Next remembers where this page started, Previous goes back to it', () => {
    const first = parse('status=pending');
    const second = nextPageQuery(first, { cursor: 'c2' });
    const third = nextPageQuery(second, { cursor: 'c3' });
    // No empty `back=` for the first page: Previous leads there once `back` is empty.
    expect(browseHref(second)).toBe('/?status=pending&cursor=c2');
    expect(browseHref(third)).toBe('/?status=pending&cursor=c3&back=c2');
    const backToSecond = previousPageQuery(third);
    expect(backToSecond).toEqual(second);
    expect(backToSecond && previousPageQuery(backToSecond)).toEqual(first);
    expect(previousPageQuery(first)).toBeUndefined();
  });

  it('keeps at most MAX_BACK_PAGES pages; beyond them Previous leads to the first page', () => {
    let query = DEFAULT_BROWSE_QUERY;
    for (let page = 1; page <= MAX_BACK_PAGES + 5; page += 1) {
      query = nextPageQuery(query, { cursor: `c${page}` });
    }
    expect(query.back).toHaveLength(MAX_BACK_PAGES);
    for (let page = 0; page < MAX_BACK_PAGES; page += 1) {
      query = previousPageQuery(query) ?? DEFAULT_BROWSE_QUERY;
    }
    expect(query.position).toEqual({ cursor: 'c5' });
    expect(previousPageQuery(query)).toEqual(DEFAULT_BROWSE_QUERY);
  });
});

describe('positions', () => {
  it('encode and decode', () => {
    expect(encodePosition({})).toBe('');
    expect(encodePosition({ cursor: 'a:b' })).toBe('a:b');
    expect(decodePosition('a:b')).toEqual({ cursor: 'a:b' });
    expect(decodePosition('')).toEqual({});
    expect(decodePosition('x'.repeat(201))).toBeUndefined();
  });
});

describe('the profile filters and the name search', () => {
  it('reads sex, age, size and the name search', () => {
    expect(parse('sex=female&age=young&size=xlarge&name=bis')).toMatchObject({
      sex: 'female',
      age: 'young',
      size: 'xlarge',
      name: 'bis',
    });
  });

  it('ignores values that are not on offer', () => {
    const query = parse('sex=unknown&age=puppy&size=huge&name=%20%21%3F%20');
    expect([query.sex, query.age, query.size, query.name]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('tidies the name search, and drops one that names nothing', () => {
    expect(parseNameSearch('  Mr.   Whis ')).toBe('Mr. Whis');
    expect(parseNameSearch('—')).toBeUndefined();
    expect(parseNameSearch('')).toBeUndefined();
    expect(parseNameSearch('x'.repeat(101))).toBeUndefined();
  });

  it('puts them in the address after status and category, and never an empty one', () => {
    const query = withFilters(DEFAULT_BROWSE_QUERY, {
      categoryId: 2,
      sex: 'male',
      age: 'senior',
      size: 'small',
      name: 'Mr Whis',
    });
    expect(browseHref(query)).toBe('/?category=2&sex=male&age=senior&size=small&name=Mr+Whis');
    expect(parse(browseHref(query).slice(2))).toEqual(query);
    expect(browseHref(withFilters(query, { sex: undefined, name: undefined }))).toBe(
      '/?category=2&age=senior&size=small',
    );
  });

  it('counts the filters that narrow the list', () => {
    expect(activeFilterCount(DEFAULT_BROWSE_QUERY)).toBe(0);
    expect(activeFilterCount(parse('status=all&sex=female&name=bis'))).toBe(3);
  });
});

describe('hasEmptyFilter', () => {
  const record = (search: string) => toSearchParamsRecord(new URLSearchParams(search));

  it('spots the empty fields a form sent without JavaScript', () => {
    expect(hasEmptyFilter(record('status=available&category=&sex=&limit=12&name='))).toBe(true);
    expect(hasEmptyFilter(record('name=%20%20'))).toBe(true);
  });

  it('leaves full addresses, and the trail of pages, alone', () => {
    expect(hasEmptyFilter(record(''))).toBe(false);
    expect(hasEmptyFilter(record('status=pending&name=bis'))).toBe(false);
    expect(hasEmptyFilter(record('cursor=abc&back='))).toBe(false);
  });
});

describe('what a home needs, and the order', () => {
  it('reads the needs in one order, each once, and only `true`', () => {
    expect(parse('goodWithCats=true&goodWithChildren=true&goodWithCats=true').needs).toEqual([
      'goodWithChildren',
      'goodWithCats',
    ]);
    expect(parse('goodWithDogs=false&houseTrained=yes&specialNeeds=true').needs).toEqual([]);
  });

  it('reads the order, newest first unless another is on offer', () => {
    expect(parse('sort=arrived').sort).toBe('arrived');
    expect(parse('sort=name').sort).toBe('name');
    expect(parse('sort=updatedAt').sort).toBe('newest');
    expect(parse('sort=').sort).toBe('newest');
  });

  it('writes them into the address, leaving newest out, and round-trips', () => {
    const query = parse('houseTrained=true&goodWithDogs=true&sort=oldest');
    expect(browseHref(query)).toBe('/?goodWithDogs=true&houseTrained=true&sort=oldest');
    expect(browseHref(parse('sort=newest'))).toBe('/');
    expect(parse(browseHref(query).slice(2))).toEqual(query);
  });

  it('counts each need as a filter, but not the order', () => {
    expect(activeFilterCount(parse('goodWithCats=true&goodWithDogs=true&sort=name'))).toBe(2);
  });

  it("asks listPets for the animals known to be so, in the order's sort", () => {
    expect(listPetsQueryOf(parse('goodWithCats=true&sort=arrived&status=all'))).toEqual({
      status: undefined,
      categoryId: undefined,
      sex: undefined,
      age: undefined,
      size: undefined,
      name: undefined,
      goodWithCats: true,
      sort: 'arrived',
      limit: PAGE_SIZES[0],
    });
    expect(listPetsQueryOf(parse('')).sort).toBeUndefined();
  });

  it('sends an empty order from a form without JavaScript back to the canonical address', () => {
    expect(hasEmptyFilter(toSearchParamsRecord(new URLSearchParams('sort=&name=')))).toBe(true);
  });
});
