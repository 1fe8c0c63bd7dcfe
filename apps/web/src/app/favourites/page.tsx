import { Heart } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { FavouritesFollower } from '@/components/favourites-follower';
import { PageIntro } from '@/components/page-intro';
import { PetCard } from '@/components/pet-card';
import { ShareButton } from '@/components/share-button';
import { StatePanel } from '@/components/state-panel';
import { listCategories, listPets } from '@/lib/api';
import { favouritesHref, parseSharedIds } from '@/lib/favourites';
import { petHref } from '@/lib/pet-links';

export const metadata: Metadata = { title: 'Favourites' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const Empty = () => (
  <StatePanel icon={Heart} title="No favourites yet" role="status">
    <p>
      Tap the heart on any animal to keep it here. Your favourites stay in this browser, and you can
      share the list as a link.
    </p>
    <p>
      <Link href="/" className="button">
        Browse the animals
      </Link>
    </p>
  </StatePanel>
);

/**
 * The animals a visitor hearted, or a list someone shared: the list is the link's `ids`, so the
 * page renders on the server like any list (one listPets call with the id filter) and a shared
 * link shows the same animals to anyone. The hearts themselves live in the browser.
 */
const FavouritesPage = async ({ searchParams }: TProps) => {
  await connection();
  const ids = parseSharedIds((await searchParams).ids);
  const intro = (
    <PageIntro title="Favourites">
      The animals you saved with the heart. The list lives in its link: share it and others see the
      same animals.
    </PageIntro>
  );
  if (ids.length === 0) {
    return (
      <>
        {intro}
        <FavouritesFollower shownIds={ids} />
        <Empty />
      </>
    );
  }
  const [found, categories] = await Promise.all([
    listPets({ id: ids.join(','), limit: ids.length }),
    listCategories(),
  ]);
  if (!found.ok) {
    return (
      <>
        {intro}
        <ApiFailure failure={found.failure} retryHref={favouritesHref(ids)} headingLevel={2} />
      </>
    );
  }
  const byId = new Map(found.data.pets.map((pet) => [pet.id, pet]));
  const pets = ids.flatMap((id) => byId.get(id) ?? []);
  const names = new Map((categories.ok ? categories.data : []).map((c) => [c.id, c.name]));
  const gone = ids.length - pets.length;
  return (
    <>
      {intro}
      <FavouritesFollower shownIds={ids} />
      {pets.length === 0 ? (
        <Empty />
      ) : (
        <>
          <div className="favourites__bar">
            <p className="results__summary" role="status">
              {pets.length === 1 ? '1 animal' : `${pets.length} animals`}
              {gone > 0 ? ` (${gone} no longer listed)` : ''}
            </p>
            <ShareButton
              title="Animals I'd love to adopt"
              text={`${pets.map((pet) => pet.name).join(', ')}: looking for a home.`}
              label="Share this list"
            />
          </div>
          <ul className="grid" aria-label="Favourite animals">
            {pets.map((pet, index) => (
              <PetCard
                key={pet.id}
                pet={pet}
                categoryName={names.get(pet.categoryId)}
                href={petHref(pet.id)}
                isPriority={index === 0 ? 'high' : index < 4}
              />
            ))}
          </ul>
        </>
      )}
    </>
  );
};

export default FavouritesPage;
