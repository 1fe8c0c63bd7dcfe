import { savedSearchInWords } from '@pets/contract/rules';
import type { TCategory, TPet } from '@pets/contract/schemas';
import { PawPrint, SearchX } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { BrowseFilters } from '@/components/browse-filters';
import { PageIntro } from '@/components/page-intro';
import { Pagination } from '@/components/pagination';
import { PetCard } from '@/components/pet-card';
import { SavedSearchForm } from '@/components/saved-search-form';
import { StatePanel } from '@/components/state-panel';
import { storeConfig } from '@/env';
import { listCategories, listPets } from '@/lib/api';
import {
  browseHref,
  browseSearch,
  DEFAULT_BROWSE_QUERY,
  hasEmptyFilter,
  isFirstPage,
  listPetsQueryOf,
  nextPageQuery,
  parseBrowseQuery,
  previousPageQuery,
  type TBrowseQuery,
} from '@/lib/browse-query';
import { petHref } from '@/lib/pet-links';
import type { TPetsPage } from '@/lib/pets-page';

export const generateMetadata = async (): Promise<Metadata> => {
  await connection();
  return { title: { absolute: `Find an animal to adopt · ${storeConfig().name}` } };
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
      <p>Try another name or fewer filters, or see every animal available for adoption.</p>
      <p>
        <Link href="/" className="button">
          Clear filters
        </Link>
      </p>
    </StatePanel>
  );
};

/** How many animals the new arrivals row shows: one row of the grid. */
const ARRIVALS_SHOWN = 4;

/**
 * The animals that arrived last (by arrival date, listPets' `sort=arrived`), above the list on the
 * plain first page: what a returning visitor looks for first. On a phone, a row that scrolls
 * sideways, so the list stays near the top.
 */
const NewArrivals = ({ pets, categories }: { pets: TPet[]; categories: TCategory[] }) => {
  const names = new Map(categories.map((category) => [category.id, category.name]));
  return (
    <section aria-labelledby="new-arrivals" className="arrivals">
      <h2 id="new-arrivals" className="arrivals__title">
        New arrivals
      </h2>
      <ul className="grid arrivals__row">
        {pets.map((pet, index) => (
          <PetCard
            key={pet.id}
            pet={pet}
            categoryName={names.get(pet.categoryId)}
            href={petHref(pet.id, '')}
            isPriority={index === 0 ? 'high' : index < 2}
            heading="h3"
          />
        ))}
      </ul>
    </section>
  );
};

/** "42 animals match" when the API counted them, else how many this page shows. */
const resultsSummary = (page: TPetsPage): string => {
  if (page.total !== undefined) {
    return page.total === 1 ? '1 animal matches' : `${page.total} animals match`;
  }
  return `${page.pets.length === 1 ? '1 animal' : `${page.pets.length} animals`} on this page`;
};

const Results = ({
  query,
  page,
  categories,
  isBelowArrivals,
}: {
  query: TBrowseQuery;
  page: TPetsPage;
  categories: TCategory[];
  /** The new arrivals are above the list: its first card is not the page's first. */
  isBelowArrivals: boolean;
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
        {resultsSummary(page)}
      </p>
      <ul className="grid" aria-label="Animals">
        {page.pets.map((pet, index) => (
          <PetCard
            key={pet.id}
            pet={pet}
            categoryName={names.get(pet.categoryId)}
            href={petHref(pet.id, from)}
            isPriority={index === 0 && !isBelowArrivals ? 'high' : index < 4}
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
  const params = await searchParams;
  const query = parseBrowseQuery(params);
  if (hasEmptyFilter(params)) {
    // The filters' form without JavaScript sends every field, the unchosen ones empty.
    redirect(browseHref(query));
  }
  // The plain first page (no filter, no other order): the one with the new arrivals above it.
  const isHome = browseSearch({ ...query, limit: DEFAULT_BROWSE_QUERY.limit }) === '';
  const [categories, page, arrivals] = await Promise.all([
    listCategories(),
    listPets({
      ...listPetsQueryOf(query),
      cursor: query.position.cursor,
      // Counting costs the API a second statement: asked once, on the first page.
      include: isFirstPage(query) ? 'total_count' : undefined,
    }),
    isHome ? listPets({ status: 'available', sort: 'arrived', limit: ARRIVALS_SHOWN }) : undefined,
  ]);

  const shownArrivals =
    arrivals?.ok && arrivals.data.pets.length >= ARRIVALS_SHOWN ? arrivals.data.pets : undefined;
  const hasArrivals = Boolean(shownArrivals && categories.ok);
  return (
    <>
      <PageIntro title="Find an animal to adopt">
        {/* Three lines on a phone, as before the match link: the first animal stays on the first
            screen (browse.spec.ts); the filters below need no words. */}
        Every one of them is at our store, waiting to meet you. Not sure where to start?{' '}
        <Link href="/match">Find your match</Link> in six questions.
      </PageIntro>
      {shownArrivals && categories.ok ? (
        <NewArrivals pets={shownArrivals} categories={categories.data} />
      ) : null}
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
          <Results
            query={query}
            page={page.data}
            categories={categories.data}
            isBelowArrivals={hasArrivals}
          />
        )}
      </section>
      {page.ok && categories.ok ? (
        <SavedSearchForm
          filter={listPetsQueryOf(query)}
          summary={savedSearchInWords(
            listPetsQueryOf(query),
            (id) => categories.data.find((category) => category.id === id)?.name,
          )}
        />
      ) : null}
    </>
  );
};

export default BrowsePage;
