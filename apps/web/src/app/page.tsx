import type { TCategory } from '@pets/contract/schemas';
import { PawPrint, SearchX } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { BrowseFilters } from '@/components/browse-filters';
import { Pagination } from '@/components/pagination';
import { PetCard } from '@/components/pet-card';
import { StatePanel } from '@/components/state-panel';
import { listCategories, listPets } from '@/lib/api';
import {
  apiStatusOf,
  browseHref,
  browseSearch,
  DEFAULT_BROWSE_QUERY,
  isFirstPage,
  nextPageQuery,
  parseBrowseQuery,
  previousPageQuery,
  type TBrowseQuery,
} from '@/lib/browse-query';
import { petHref } from '@/lib/pet-links';
import type { TPetsPage } from '@/lib/pets-page';
import { STORE_NAME } from '@/lib/site';

export const metadata: Metadata = {
  title: { absolute: `Find an animal to adopt · ${STORE_NAME}` },
};

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const EmptyList = ({ query }: { query: TBrowseQuery }) => {
  if (!isFirstPage(query)) {
    return (
      <StatePanel icon={SearchX} title="No more animals here" role="status">
        <p>That is the end of this list.</p>
        <p>
          <Link href={browseHref({ ...query, position: {}, back: [] })}>
            Back to the first page
          </Link>
        </p>
      </StatePanel>
    );
  }
  const isFiltered = browseSearch({ ...query, limit: DEFAULT_BROWSE_QUERY.limit }) !== '';
  if (!isFiltered) {
    return (
      <StatePanel icon={PawPrint} title="Every animal has found a home" role="status">
        <p>No animal is waiting for adoption right now. New arrivals come in every week.</p>
      </StatePanel>
    );
  }
  return (
    <StatePanel icon={SearchX} title="No animals match these filters" role="status">
      <p>Try another status or category, or see every animal available for adoption.</p>
      <p>
        <Link href="/" className="button">
          Clear filters
        </Link>
      </p>
    </StatePanel>
  );
};

const Results = ({
  query,
  page,
  categories,
}: {
  query: TBrowseQuery;
  page: TPetsPage;
  categories: TCategory[];
}) => {
  if (page.pets.length === 0 && !page.nextCursor) {
    return <EmptyList query={query} />;
  }
  const names = new Map(categories.map((category) => [category.id, category.name]));
  const from = browseSearch(query);
  const previous = previousPageQuery(query);
  return (
    <>
      <p className="results__summary" role="status">
        {page.pets.length === 1 ? '1 animal' : `${page.pets.length} animals`} on this page
      </p>
      <ul className="grid" aria-label="Animals">
        {page.pets.map((pet) => (
          <PetCard
            key={pet.id}
            pet={pet}
            categoryName={names.get(pet.categoryId)}
            href={petHref(pet.id, from)}
          />
        ))}
      </ul>
      <Pagination
        previousHref={previous ? browseHref(previous) : undefined}
        nextHref={
          page.nextCursor
            ? browseHref(nextPageQuery(query, { cursor: page.nextCursor }))
            : undefined
        }
      />
    </>
  );
};

const BrowsePage = async ({ searchParams }: TProps) => {
  await connection(); // rendered per request: it reads the API
  const query = parseBrowseQuery(await searchParams);
  const [categories, page] = await Promise.all([
    listCategories(),
    listPets({
      status: apiStatusOf(query.status),
      categoryId: query.categoryId,
      limit: query.limit,
      cursor: query.position.cursor,
    }),
  ]);

  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">Find an animal to adopt</h1>
        <p className="lead">
          Every one of them is at our store, waiting to meet you. Filter by what you are looking
          for, then open an animal to learn more.
        </p>
      </div>
      {categories.ok ? <BrowseFilters query={query} categories={categories.data} /> : null}
      <section aria-label="Results" className="results">
        {!page.ok && page.failure.kind === 'invalid' ? (
          <StatePanel icon={SearchX} title="This page of the list has expired" role="alert">
            <p>
              <Link href={browseHref({ ...query, position: {}, back: [] })}>
                Start again from the first page
              </Link>
            </p>
          </StatePanel>
        ) : !page.ok ? (
          <ApiFailure failure={page.failure} retryHref={browseHref(query)} />
        ) : !categories.ok ? (
          <ApiFailure failure={categories.failure} retryHref={browseHref(query)} />
        ) : (
          <Results query={query} page={page.data} categories={categories.data} />
        )}
      </section>
    </>
  );
};

export default BrowsePage;
