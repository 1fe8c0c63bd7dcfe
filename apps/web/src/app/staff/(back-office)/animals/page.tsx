import { type TPet, ZPetCoatLength, ZPetEnergyLevel, ZPetStatus } from '@pets/contract/schemas';
import { PawPrint, Search, SlidersHorizontal } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { CategoryVisual } from '@/components/category-visual';
import { PageIntro } from '@/components/page-intro';
import { Pagination } from '@/components/pagination';
import { PhotoImage } from '@/components/photo-image';
import { StatePanel } from '@/components/state-panel';
import { STATUS_LOOKS, StatusBadge } from '@/components/status-badge';
import { TableScroll } from '@/components/table-scroll';
import { listCategories } from '@/lib/api';
import { PET_FORM_LABELS } from '@/lib/pet-form';
import { photoView } from '@/lib/photo-view';
import { requireStaffKey, SESSION_EXPIRED_PATH } from '@/lib/session';
import {
  isFiltered,
  listPetsQueryOf,
  parseStaffAnimalsQuery,
  STAFF_FACT_FILTERS,
  staffAnimalsHref,
  type TStaffAnimalsQuery,
} from '@/lib/staff-animals';
import { asPageFailure, listPetsAsStaff } from '@/lib/staff-api';
import { BulkEditForm } from './bulk-edit-form';

export const metadata: Metadata = { title: 'Animals' };

const PAGE_SIZE = 20;

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const yesNo = (value: boolean | null) => (value === null ? 'Not known' : value ? 'Yes' : 'No');

/** The first photo at the size the photo lists use, or the category's drawing when none. */
const Thumbnail = ({ pet, categoryName }: { pet: TPet; categoryName: string | undefined }) => {
  const photo = pet.photos[0];
  if (!photo) {
    return <CategoryVisual categoryName={categoryName} size="thumb" />;
  }
  return (
    <div className="visual visual--photo visual--thumb">
      <PhotoImage
        view={photoView(photo, 160)}
        sizes="4rem"
        alt={`Photo of ${pet.name}`}
        loading="lazy"
        decoding="async"
        className="visual__photo"
      />
    </div>
  );
};

/** A select of the filter form: "Any" and the choices, as the address has it. */
const FilterSelect = ({
  name,
  label,
  value,
  any,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  any: string;
  options: readonly (readonly [string, string])[];
}) => (
  <div className="filters__field">
    <label htmlFor={`animals-${name}`} className="filters__label">
      {label}
    </label>
    <select
      id={`animals-${name}`}
      name={name}
      defaultValue={value ?? ''}
      className="select select--narrow"
    >
      <option value="">{any}</option>
      {options.map(([option, words]) => (
        <option key={option} value={option}>
          {words}
        </option>
      ))}
    </select>
  </div>
);

const FACT_OPTIONS = [
  ['true', 'Yes'],
  ['false', 'No'],
] as const;

const Filters = ({
  query,
  categories,
}: {
  query: TStaffAnimalsQuery;
  categories: { id: number; name: string }[];
}) => {
  const chosen = [
    query.status !== undefined,
    query.categoryId !== undefined,
    ...STAFF_FACT_FILTERS.map((fact) => query.facts[fact] !== undefined),
    query.energyLevel !== undefined,
    query.coatLength !== undefined,
  ].filter(Boolean).length;
  return (
    <form
      method="get"
      action="/staff/animals"
      className="filters animals-filters"
      aria-label="Find animals"
    >
      <div className="filters__search">
        <label htmlFor="animals-name" className="filters__label">
          Search by name
        </label>
        <div className="filters__search-row">
          <input
            id="animals-name"
            name="name"
            type="search"
            defaultValue={query.name ?? ''}
            autoComplete="off"
            className="input filters__search-input"
          />
          <button type="submit" className="button button--secondary filters__submit">
            <Search aria-hidden="true" focusable="false" className="button__icon" />
            Show animals
          </button>
        </div>
      </div>
      {/* On a phone the filters fold away, as on the public list; wider, they are all shown. */}
      <details className="filters__more" open={chosen > 0}>
        <summary className="filters__toggle">
          <SlidersHorizontal aria-hidden="true" focusable="false" className="button__icon" />
          <span>Filters</span>
          {chosen > 0 ? (
            <span className="filters__count">
              {chosen}
              <span className="visually-hidden"> chosen</span>
            </span>
          ) : null}
        </summary>
        <div className="filters__panel">
          <FilterSelect
            name="status"
            label="Status"
            value={query.status}
            any="Any status"
            options={ZPetStatus.options.map((status) => [status, STATUS_LOOKS[status].label])}
          />
          <FilterSelect
            name="category"
            label="Category"
            value={query.categoryId ? String(query.categoryId) : undefined}
            any="Any category"
            options={categories.map((category) => [String(category.id), category.name])}
          />
          {STAFF_FACT_FILTERS.map((fact) => (
            <FilterSelect
              key={fact}
              name={fact}
              label={PET_FORM_LABELS[fact]}
              value={query.facts[fact] === undefined ? undefined : String(query.facts[fact])}
              any="Any"
              options={FACT_OPTIONS}
            />
          ))}
          <FilterSelect
            name="energyLevel"
            label={PET_FORM_LABELS.energyLevel}
            value={query.energyLevel}
            any="Any"
            options={ZPetEnergyLevel.options.map((level) => [level, capitalised(level)])}
          />
          <FilterSelect
            name="coatLength"
            label={PET_FORM_LABELS.coatLength}
            value={query.coatLength}
            any="Any"
            options={ZPetCoatLength.options.map((coat) => [coat, capitalised(coat)])}
          />
        </div>
      </details>
      {isFiltered(query) ? (
        <p className="filters__clear">
          <Link href="/staff/animals">Clear the filters</Link>
        </p>
      ) : null}
    </form>
  );
};

/**
 * Every animal, newest first: search by name, filters (listPets' own, kept in the address), a
 * thumbnail each, and "Set one field" on the ticked ones. Each name links to its edit page.
 */
const AnimalsPage = async ({ searchParams }: TProps) => {
  await connection();
  const { apiKey } = await requireStaffKey();
  const query = parseStaffAnimalsQuery(await searchParams);
  const [page, categories] = await Promise.all([
    listPetsAsStaff(apiKey, listPetsQueryOf(query, PAGE_SIZE)),
    listCategories(),
  ]);
  if (!page.ok && page.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  const categoryList = categories.ok ? categories.data : [];
  const categoryNames = new Map(categoryList.map((category) => [category.id, category.name]));
  const filtered = isFiltered(query);
  const here = { cursor: query.cursor };
  return (
    <>
      <PageIntro title="Animals">
        Newest first. <Link href="/staff/animals/new">Add an animal</Link> or open one to change its
        details, its story and its photos; tick several to set one field on all of them.
      </PageIntro>
      <Filters query={query} categories={categoryList} />
      {!page.ok ? (
        <ApiFailure
          failure={asPageFailure(page.failure)}
          retryHref={staffAnimalsHref(query, here)}
        />
      ) : page.data.pets.length === 0 ? (
        <StatePanel
          icon={PawPrint}
          title={filtered ? 'No animals match' : 'No animals yet'}
          role="status"
          actions={
            filtered ? (
              <Link href="/staff/animals" className="button button--secondary">
                Show every animal
              </Link>
            ) : undefined
          }
        >
          <p>
            {filtered ? (
              'Nothing matches these filters. Try fewer of them, or another name.'
            ) : (
              <Link href="/staff/animals/new">Add the first one</Link>
            )}
          </p>
        </StatePanel>
      ) : (
        <>
          <BulkEditForm
            selectAllHref={staffAnimalsHref(query, { ...here, selectAll: true })}
            clearHref={staffAnimalsHref(query, here)}
            isAllSelected={query.selectAll}
          >
            <TableScroll label="Animals">
              <table className="data-table animals-table">
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">Tick</span>
                    </th>
                    <th scope="col">
                      <span className="visually-hidden">Photo</span>
                    </th>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Children</th>
                    <th scope="col">Dogs</th>
                    <th scope="col">Cats</th>
                    <th scope="col">Energy</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.pets.map((pet) => (
                    <tr key={pet.id}>
                      <td>
                        <input
                          id={`tick-${pet.id}`}
                          type="checkbox"
                          name="pet"
                          value={String(pet.id)}
                          defaultChecked={query.selectAll}
                          aria-label={`Select ${pet.name}`}
                          className="animals-table__tick"
                        />
                      </td>
                      <td>
                        <Thumbnail pet={pet} categoryName={categoryNames.get(pet.categoryId)} />
                      </td>
                      <th scope="row" className="animals-table__name">
                        <Link href={`/staff/animals/${pet.id}`} prefetch={false}>
                          {pet.name}
                        </Link>
                        <span className="queue__meta">
                          {categoryNames.get(pet.categoryId) ?? 'Animal'} · #{pet.id}
                        </span>
                      </th>
                      <td>
                        <StatusBadge status={pet.status} />
                      </td>
                      <td>{yesNo(pet.goodWithChildren)}</td>
                      <td>{yesNo(pet.goodWithDogs)}</td>
                      <td>{yesNo(pet.goodWithCats)}</td>
                      <td>{pet.energyLevel ? capitalised(pet.energyLevel) : 'Not said'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </BulkEditForm>
          <Pagination
            previousHref={query.cursor ? staffAnimalsHref(query) : undefined}
            nextHref={
              page.data.nextCursor
                ? staffAnimalsHref(query, { cursor: page.data.nextCursor })
                : undefined
            }
          />
        </>
      )}
    </>
  );
};

export default AnimalsPage;
