'use client';

import type { TCategory } from '@pets/contract/schemas';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState, useTransition } from 'react';
import {
  browseHref,
  PAGE_SIZES,
  STATUS_FILTERS,
  type TBrowseQuery,
  type TStatusFilter,
  withFilters,
} from '@/lib/browse-query';

const STATUS_LABELS: Record<TStatusFilter, string> = {
  available: 'Available',
  pending: 'Pending adoption',
  sold: 'Adopted',
  all: 'All',
};

type TProps = { query: TBrowseQuery; categories: TCategory[] };

/**
 * The filters of the Browse page. A plain GET form, so it works before (or without) JavaScript;
 * with it, every change navigates at once to the canonical address of the new filters (and back to
 * their first page), keeping focus where it was.
 */
type TFilters = Pick<TBrowseQuery, 'status' | 'categoryId' | 'limit'>;

const filtersOf = ({ status, categoryId, limit }: TBrowseQuery): TFilters => ({
  status,
  categoryId,
  limit,
});
const keyOf = (filters: TFilters) => `${filters.status}|${filters.categoryId}|${filters.limit}`;

export const BrowseFilters = ({ query, categories }: TProps) => {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  // The controls show the visitor's choice at once, and follow the address when it changes
  // by other means (Back, Forward, a link).
  const [filters, setFilters] = useState(() => filtersOf(query));
  const [shownKey, setShownKey] = useState(() => keyOf(filtersOf(query)));
  if (shownKey !== keyOf(filtersOf(query))) {
    setShownKey(keyOf(filtersOf(query)));
    setFilters(filtersOf(query));
  }

  const apply = (change: Partial<TFilters>) => {
    const next = { ...filters, ...change };
    setFilters(next);
    startTransition(() => router.push(browseHref(withFilters(query, next)), { scroll: false }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply({});
  };

  return (
    <form
      method="get"
      action="/"
      className="filters"
      aria-label="Filter animals"
      onSubmit={onSubmit}
    >
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
      <div className="filters__field">
        <label htmlFor="filter-category" className="filters__label">
          Category
        </label>
        <select
          id="filter-category"
          name="category"
          value={filters.categoryId === undefined ? '' : String(filters.categoryId)}
          onChange={(event) => {
            const category = Number(event.currentTarget.value);
            apply({
              categoryId: Number.isInteger(category) && category > 0 ? category : undefined,
            });
          }}
          className="select"
        >
          <option value="">All categories</option>
          {categories.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {category.name}
            </option>
          ))}
        </select>
      </div>
      <div className="filters__field">
        <label htmlFor="filter-limit" className="filters__label">
          Per page
        </label>
        <select
          id="filter-limit"
          name="limit"
          value={String(filters.limit)}
          onChange={(event) => {
            const limit = Number(event.currentTarget.value);
            apply({ limit: PAGE_SIZES.find((size) => size === limit) ?? filters.limit });
          }}
          className="select select--narrow"
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <noscript>
        <button type="submit" className="button">
          Show animals
        </button>
      </noscript>
      <p className="filters__pending" aria-live="polite">
        {isPending ? 'Updating…' : ''}
      </p>
    </form>
  );
};
