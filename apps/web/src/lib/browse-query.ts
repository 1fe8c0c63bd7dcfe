// The browse filters (a client component) use this module: values from the contract's zod-free
// rules, types alone from its schemas.
import {
  MAX_ID,
  nameSearchWords,
  PAGE_SIZE,
  PET_AGES,
  PET_NAME_SEARCH_MAX_LENGTH,
  PET_SIZES,
  PET_STATUSES,
} from '@pets/contract/rules';
import type {
  PET_DETAIL_FACTS,
  TPetAge,
  TPetSex,
  TPetSize,
  TPetStatus,
  TPetsListSort,
} from '@pets/contract/schemas';

/**
 * The state of the Browse page, kept in its URL so a filtered page can be shared and reloaded:
 *
 *   /?status=pending&category=2&sex=female&age=young&size=small&name=bis&limit=24
 *     &cursor=<api cursor>&back=<api cursor>
 *
 * - `status`: a PetStatus or `all`; omitted means `available` (people come to adopt).
 * - `category`: a category id; omitted means every category.
 * - `sex` (`female` or `male`), `age` (a PetAge), `size` (a PetSize): omitted means any.
 * - `name`: the name search as typed (spaces tidied), sent to listPets' `name`; omitted means any
 *   name. A text without a letter or digit searches nothing, so it is left out.
 * - `goodWithChildren`, `goodWithDogs`, `goodWithCats`, `houseTrained`: `true` keeps the animals
 *   the store knows to be so (listPets' filters of the same names); omitted means any.
 * - `sort`: `arrived`, `name` or `oldest`; omitted means newest first.
 * - `limit`: the page size, one of PAGE_SIZES; omitted means the first of them.
 * - `cursor`: where this page starts, an opaque cursor of the API; omitted means the first page.
 * - `back`: the positions of the pages before this one, oldest first, so "Previous" works without
 *   the API having to page backwards. The first page is never listed (no empty `back=`): it is
 *   where "Previous" leads once `back` is empty.
 *
 * Parsing is lenient: a value that makes no sense falls back to its default rather than failing,
 * since these addresses are typed, shared and bookmarked by people.
 */

export type TStatusFilter = TPetStatus | 'all';
export const STATUS_FILTERS: readonly TStatusFilter[] = [...PET_STATUSES, 'all'];
export const DEFAULT_STATUS: TStatusFilter = 'available';

/** Page sizes on offer: multiples of four fill the grid's rows. All within the API's bounds. */
export const PAGE_SIZES = [12, 24, 48].filter(
  (size) => size >= PAGE_SIZE.min && size <= PAGE_SIZE.max,
);
export const DEFAULT_PAGE_SIZE = PAGE_SIZES[0] ?? PAGE_SIZE.default;

/** Pages remembered for "Previous"; older ones are dropped (then "Previous" leads further back). */
export const MAX_BACK_PAGES = 20;
/** Cursors are opaque and short; anything longer is not one of ours. */
const MAX_CURSOR_LENGTH = 200;

/** Where a page starts: after `cursor` (an opaque cursor of the API, absent for the first page). */
export type TPosition = { cursor?: string };

/** The sexes an adopter may choose: `unknown` is for records, not something people look for. */
export const SEX_FILTERS: readonly TPetSex[] = ['female', 'male'];
export const AGE_FILTERS: readonly TPetAge[] = PET_AGES;
export const SIZE_FILTERS: readonly TPetSize[] = PET_SIZES;

/**
 * What an adopter's home may need of an animal, each a yes/no detail of listPets: checked, the
 * list keeps the animals known to be so (never those nobody has tried).
 */
export const NEEDS_FILTERS = [
  'goodWithChildren',
  'goodWithDogs',
  'goodWithCats',
  'houseTrained',
] as const satisfies readonly (typeof PET_DETAIL_FACTS)[number][];
export type TNeedFilter = (typeof NEEDS_FILTERS)[number];

/** The orders on offer, listPets' `sort`; the first is the default, left out of addresses. */
export const SORT_CHOICES = [
  'newest',
  'arrived',
  'name',
  'oldest',
] as const satisfies readonly TPetsListSort[];
export type TSortChoice = (typeof SORT_CHOICES)[number];
export const DEFAULT_SORT: TSortChoice = 'newest';

export type TBrowseQuery = {
  status: TStatusFilter;
  categoryId?: number;
  sex?: TPetSex;
  age?: TPetAge;
  size?: TPetSize;
  /** The name search, trimmed, inner spaces collapsed; never empty. */
  name?: string;
  /** In NEEDS_FILTERS' order, each once. */
  needs: TNeedFilter[];
  sort: TSortChoice;
  limit: number;
  position: TPosition;
  back: TPosition[];
};

export const DEFAULT_BROWSE_QUERY: TBrowseQuery = {
  status: DEFAULT_STATUS,
  needs: [],
  sort: DEFAULT_SORT,
  limit: DEFAULT_PAGE_SIZE,
  position: {},
  back: [],
};

type TSearchParamsRecord = Record<string, string | string[] | undefined>;

const all = (params: TSearchParamsRecord, name: string): string[] => {
  const value = params[name];
  if (value === undefined) {
    return [];
  }
  return Array.isArray(value) ? value : [value];
};
const first = (params: TSearchParamsRecord, name: string): string | undefined =>
  all(params, name)[0];

const parseCursor = (value: string | undefined): string | undefined =>
  value && value.length <= MAX_CURSOR_LENGTH ? value : undefined;

const parseCount = (value: string | undefined, max: number): number | undefined => {
  if (!value || !/^\d{1,16}$/.test(value)) {
    return undefined;
  }
  const count = Number(value);
  return count <= max ? count : undefined;
};

/** The form of a position inside `back`: its cursor, empty for the first page. */
export const encodePosition = (position: TPosition): string => position.cursor ?? '';

export const decodePosition = (value: string): TPosition | undefined => {
  if (value === '') {
    return {};
  }
  const cursor = parseCursor(value);
  return cursor === undefined ? undefined : { cursor };
};

export const toSearchParamsRecord = (params: URLSearchParams): TSearchParamsRecord => {
  const record: Record<string, string[]> = {};
  for (const [name, value] of params) {
    record[name] = [...(record[name] ?? []), value];
  }
  return record;
};

const pick = <T extends string>(options: readonly T[], value: string | undefined): T | undefined =>
  options.find((option) => option === value);

/** A name search as the address and the search box show it, or undefined when it finds nothing. */
export const parseNameSearch = (value: string | undefined): string | undefined => {
  const name = value?.trim().replace(/\s+/g, ' ');
  if (!name || name.length > PET_NAME_SEARCH_MAX_LENGTH || nameSearchWords(name).length === 0) {
    return undefined;
  }
  return name;
};

export const parseBrowseQuery = (params: TSearchParamsRecord): TBrowseQuery => {
  const status = first(params, 'status');
  const limit = parseCount(first(params, 'limit'), PAGE_SIZE.max);
  const categoryId = parseCount(first(params, 'category'), MAX_ID);
  const cursor = parseCursor(first(params, 'cursor'));
  const back = all(params, 'back')
    .map(decodePosition)
    // The first page (an empty `back=` of older links) is implied: see previousPageQuery.
    .filter((position): position is TPosition => position?.cursor !== undefined)
    .slice(-MAX_BACK_PAGES);
  return {
    status: STATUS_FILTERS.find((filter) => filter === status) ?? DEFAULT_STATUS,
    categoryId: categoryId !== undefined && categoryId >= 1 ? categoryId : undefined,
    sex: pick(SEX_FILTERS, first(params, 'sex')),
    age: pick(AGE_FILTERS, first(params, 'age')),
    size: pick(SIZE_FILTERS, first(params, 'size')),
    name: parseNameSearch(first(params, 'name')),
    needs: NEEDS_FILTERS.filter((need) => first(params, need) === 'true'),
    sort: pick(SORT_CHOICES, first(params, 'sort')) ?? DEFAULT_SORT,
    limit: PAGE_SIZES.find((size) => size === limit) ?? DEFAULT_PAGE_SIZE,
    position: cursor === undefined ? {} : { cursor },
    back: cursor === undefined ? [] : back,
  };
};

/** Parameters of the filters that a plain (JavaScript-free) GET of the filters' form may send. */
const FORM_PARAMETERS = [
  'status',
  'category',
  'sex',
  'age',
  'size',
  'name',
  'sort',
  'limit',
] as const;

/**
 * Whether the address carries a filter with nothing in it (`category=&name=`), as the filters'
 * form sends without JavaScript: the page then redirects to the canonical address, so no address
 * the site shows or shares has empty parameters.
 */
export const hasEmptyFilter = (params: TSearchParamsRecord): boolean =>
  FORM_PARAMETERS.some((name) => all(params, name).some((value) => value.trim() === ''));

/** The canonical query string (with its `?`, or empty): defaults are left out. */
export const browseSearch = (query: TBrowseQuery): string => {
  const params = new URLSearchParams();
  if (query.status !== DEFAULT_STATUS) {
    params.set('status', query.status);
  }
  if (query.categoryId !== undefined) {
    params.set('category', String(query.categoryId));
  }
  for (const key of ['sex', 'age', 'size', 'name'] as const) {
    const value = query[key];
    if (value !== undefined) {
      params.set(key, value);
    }
  }
  for (const need of query.needs) {
    params.set(need, 'true');
  }
  if (query.sort !== DEFAULT_SORT) {
    params.set('sort', query.sort);
  }
  if (query.limit !== DEFAULT_PAGE_SIZE) {
    params.set('limit', String(query.limit));
  }
  if (query.position.cursor !== undefined) {
    params.set('cursor', query.position.cursor);
  }
  for (const position of query.back) {
    params.append('back', encodePosition(position));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
};

export const browseHref = (query: TBrowseQuery): string => `/${browseSearch(query)}`;

export const isFirstPage = (query: TBrowseQuery): boolean => query.position.cursor === undefined;

/** What the filters' form sets (everything but the position). */
export type TBrowseFilters = Pick<
  TBrowseQuery,
  'status' | 'categoryId' | 'sex' | 'age' | 'size' | 'name' | 'needs' | 'sort' | 'limit'
>;

/** The same filters from their first page: what a change of filter leads to. */
export const withFilters = (
  query: TBrowseQuery,
  filters: Partial<TBrowseFilters>,
): TBrowseQuery => ({ ...query, ...filters, position: {}, back: [] });

/** How many filters narrow the list beyond the default (available animals of every kind). */
export const activeFilterCount = (query: TBrowseQuery): number =>
  [
    query.status !== DEFAULT_STATUS,
    query.categoryId !== undefined,
    query.sex !== undefined,
    query.age !== undefined,
    query.size !== undefined,
    query.name !== undefined,
  ].filter(Boolean).length + query.needs.length;

export const nextPageQuery = (query: TBrowseQuery, next: TPosition): TBrowseQuery => ({
  ...query,
  position: next,
  back: isFirstPage(query) ? [] : [...query.back, query.position].slice(-MAX_BACK_PAGES),
});

/** The page before this one, or undefined on the first page. */
export const previousPageQuery = (query: TBrowseQuery): TBrowseQuery | undefined => {
  if (isFirstPage(query)) {
    return undefined;
  }
  const previous = query.back.at(-1) ?? {};
  return { ...query, position: previous, back: query.back.slice(0, -1) };
};

/** listPets' filters and order for the page's choices (what the list is, not where it starts). */
export const listPetsQueryOf = (query: TBrowseQuery) => ({
  status: apiStatusOf(query.status),
  categoryId: query.categoryId,
  sex: query.sex,
  age: query.age,
  size: query.size,
  name: query.name,
  ...Object.fromEntries(query.needs.map((need) => [need, true as const])),
  sort: query.sort === DEFAULT_SORT ? undefined : query.sort,
  limit: query.limit,
});

/** The API's status filter for a status choice: `all` means no filter. */
export const apiStatusOf = (status: TStatusFilter): TPetStatus | undefined =>
  status === 'all' ? undefined : status;
