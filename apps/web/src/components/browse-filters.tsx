'use client';

import type { TCategory } from '@pets/contract/schemas';
import { Search, SlidersHorizontal } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState, useTransition } from 'react';
import {
  AGE_FILTERS,
  activeFilterCount,
  browseHref,
  DEFAULT_SORT,
  NEEDS_FILTERS,
  PAGE_SIZES,
  parseNameSearch,
  SEX_FILTERS,
  SIZE_FILTERS,
  SORT_CHOICES,
  STATUS_FILTERS,
  type TBrowseFilters,
  type TBrowseQuery,
  type TNeedFilter,
  type TSortChoice,
  type TStatusFilter,
  withFilters,
} from '@/lib/browse-query';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from '@/lib/profile-labels';

const STATUS_LABELS: Record<TStatusFilter, string> = {
  available: 'Available',
  pending: 'Pending adoption',
  sold: 'Adopted',
  all: 'All',
};

/** Each need as a chip: short, since the list says what it keeps ("known to be"). */
const NEED_LABELS: Record<TNeedFilter, string> = {
  goodWithChildren: 'Children',
  goodWithDogs: 'Dogs',
  goodWithCats: 'Cats',
  houseTrained: 'House-trained',
};

const SORT_LABELS: Record<TSortChoice, string> = {
  newest: 'Newest listings',
  arrived: 'Latest arrivals',
  name: 'Name, A to Z',
  oldest: 'Waiting longest',
};

type TProps = { query: TBrowseQuery; categories: TCategory[] };

const filtersOf = ({
  status,
  categoryId,
  sex,
  age,
  size,
  name,
  needs,
  sort,
  limit,
}: TBrowseQuery): TBrowseFilters => ({
  status,
  categoryId,
  sex,
  age,
  size,
  name,
  needs,
  sort,
  limit,
});
const keyOf = (filters: TBrowseFilters) =>
  [
    filters.status,
    filters.categoryId,
    filters.sex,
    filters.age,
    filters.size,
    filters.name,
    filters.needs.join(','),
    filters.sort,
    filters.limit,
  ].join('|');

/** An option of a select, or undefined for its "any" choice (an empty value). */
const chosen = <T extends string>(options: readonly T[], value: string): T | undefined =>
  options.find((option) => option === value);

type TSelectProps = {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  isNarrow?: boolean;
};

const FilterSelect = ({ id, name, label, value, onChange, options, isNarrow }: TSelectProps) => (
  <div className="filters__field">
    <label htmlFor={id} className="filters__label">
      {label}
    </label>
    <select
      id={id}
      name={name}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      className={isNarrow ? 'select select--narrow' : 'select'}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  </div>
);

/**
 * The filters of the Browse page. A plain GET form, so it works before (or without) JavaScript
 * (the page then redirects the empty fields away); with it, every choice navigates at once to the
 * canonical address of the new filters (and back to their first page), keeping focus where it
 * was, and the name search goes when it is sent.
 *
 * On a phone only the name search and one "Filters" control show: the choices are inside a
 * <details>, closed until opened (no JavaScript needed). From 36rem up, globals.css shows them in
 * a row whether the <details> is open or not, and hides its summary.
 */
export const BrowseFilters = ({ query, categories }: TProps) => {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  // The controls show the visitor's choice at once, and follow the address when it changes
  // by other means (Back, Forward, a link).
  const [filters, setFilters] = useState(() => filtersOf(query));
  const [nameText, setNameText] = useState(query.name ?? '');
  const [shownKey, setShownKey] = useState(() => keyOf(filtersOf(query)));
  if (shownKey !== keyOf(filtersOf(query))) {
    setShownKey(keyOf(filtersOf(query)));
    setFilters(filtersOf(query));
    setNameText(query.name ?? '');
  }

  const apply = (change: Partial<TBrowseFilters>) => {
    const next = { ...filters, ...change };
    setFilters(next);
    startTransition(() => router.push(browseHref(withFilters(query, next)), { scroll: false }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply({ name: parseNameSearch(nameText) });
  };

  const activeCount = activeFilterCount({ ...query, name: undefined });
  const categoryName = categories.find((category) => category.id === filters.categoryId)?.name;

  return (
    <form
      method="get"
      action="/"
      className="filters"
      aria-label="Filter animals"
      onSubmit={onSubmit}
    >
      <div className="filters__search">
        <label htmlFor="filter-name" className="filters__label">
          Name
        </label>
        <div className="filters__search-row">
          <input
            id="filter-name"
            name="name"
            type="search"
            inputMode="search"
            autoComplete="off"
            enterKeyHint="search"
            placeholder="Search by name"
            value={nameText}
            onChange={(event) => setNameText(event.currentTarget.value)}
            className="input filters__search-input"
          />
          <button type="submit" className="button button--small filters__submit">
            <Search aria-hidden="true" focusable="false" className="button__icon" />
            <span>Search</span>
          </button>
        </div>
      </div>
      <details className="filters__more">
        <summary className="filters__toggle">
          <SlidersHorizontal aria-hidden="true" focusable="false" className="button__icon" />
          <span>Filters</span>
          <span className="filters__summary">
            {[
              STATUS_LABELS[filters.status],
              categoryName,
              filters.sex ? SEX_LABELS[filters.sex] : undefined,
              filters.age ? AGE_LABELS[filters.age] : undefined,
              filters.size ? SIZE_LABELS[filters.size] : undefined,
              filters.needs.length > 0
                ? `Good with ${filters.needs.map((need) => NEED_LABELS[need].toLowerCase()).join(', ')}`
                : undefined,
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
          {activeCount > 0 ? (
            <span className="filters__count">
              {activeCount}
              <span className="visually-hidden"> chosen</span>
            </span>
          ) : null}
        </summary>
        <div className="filters__panel">
          <fieldset className="filters__field segmented">
            <legend className="filters__label">Status</legend>
            <div className="segmented__options">
              {STATUS_FILTERS.map((status) => (
                <label key={status} className="segmented__option">
                  <input
                    type="radio"
                    name="status"
                    value={status}
                    checked={filters.status === status}
                    onChange={() => apply({ status })}
                    className="segmented__input"
                  />
                  <span>{STATUS_LABELS[status]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <FilterSelect
            id="filter-category"
            name="category"
            label="Category"
            value={filters.categoryId === undefined ? '' : String(filters.categoryId)}
            onChange={(value) => {
              const category = Number(value);
              apply({
                categoryId: Number.isInteger(category) && category > 0 ? category : undefined,
              });
            }}
            options={[
              { value: '', label: 'All categories' },
              ...categories.map((category) => ({
                value: String(category.id),
                label: category.name,
              })),
            ]}
          />
          <FilterSelect
            id="filter-sex"
            name="sex"
            label="Sex"
            value={filters.sex ?? ''}
            onChange={(value) => apply({ sex: chosen(SEX_FILTERS, value) })}
            options={[
              { value: '', label: 'Any' },
              ...SEX_FILTERS.map((sex) => ({ value: sex, label: SEX_LABELS[sex] })),
            ]}
            isNarrow
          />
          <FilterSelect
            id="filter-age"
            name="age"
            label="Age"
            value={filters.age ?? ''}
            onChange={(value) => apply({ age: chosen(AGE_FILTERS, value) })}
            options={[
              { value: '', label: 'Any' },
              ...AGE_FILTERS.map((age) => ({ value: age, label: AGE_LABELS[age] })),
            ]}
            isNarrow
          />
          <FilterSelect
            id="filter-size"
            name="size"
            label="Size"
            value={filters.size ?? ''}
            onChange={(value) => apply({ size: chosen(SIZE_FILTERS, value) })}
            options={[
              { value: '', label: 'Any' },
              ...SIZE_FILTERS.map((size) => ({ value: size, label: SIZE_LABELS[size] })),
            ]}
            isNarrow
          />
          <fieldset className="filters__field segmented">
            <legend className="filters__label">Known to be good with</legend>
            <div className="segmented__options">
              {NEEDS_FILTERS.map((need) => (
                <label key={need} className="segmented__option">
                  <input
                    type="checkbox"
                    name={need}
                    value="true"
                    checked={filters.needs.includes(need)}
                    onChange={(event) => {
                      const isChecked = event.currentTarget.checked;
                      apply({
                        needs: NEEDS_FILTERS.filter((each) =>
                          each === need ? isChecked : filters.needs.includes(each),
                        ),
                      });
                    }}
                    className="segmented__input"
                  />
                  <span>{NEED_LABELS[need]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <FilterSelect
            id="filter-sort"
            name="sort"
            label="Order"
            value={filters.sort === DEFAULT_SORT ? '' : filters.sort}
            onChange={(value) =>
              apply({ sort: SORT_CHOICES.find((sort) => sort === value) ?? DEFAULT_SORT })
            }
            options={SORT_CHOICES.map((sort) => ({
              value: sort === DEFAULT_SORT ? '' : sort,
              label: SORT_LABELS[sort],
            }))}
          />
          <FilterSelect
            id="filter-limit"
            name="limit"
            label="Per page"
            value={String(filters.limit)}
            onChange={(value) => {
              const limit = Number(value);
              apply({ limit: PAGE_SIZES.find((size) => size === limit) ?? filters.limit });
            }}
            options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
            isNarrow
          />
          <noscript>
            <button type="submit" className="button">
              Show animals
            </button>
          </noscript>
        </div>
      </details>
      <p className="filters__pending" aria-live="polite">
        {isPending ? 'Updating…' : ''}
      </p>
    </form>
  );
};
