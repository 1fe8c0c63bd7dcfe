'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { favouritesHref } from '@/lib/favourites';
import { useFavourites } from './favourite-button';

const sameList = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * Keeps /favourites showing this browser's own list: opened without ids, it moves to the link
 * of the stored ones (the address that "Share this list" shares); showing the visitor's own list,
 * it follows each heart added or taken away. A list someone else shared is left as it is.
 */
export const FavouritesFollower = ({ shownIds }: { shownIds: number[] }) => {
  const router = useRouter();
  const favourites = useFavourites();
  const isOwnList = useRef<boolean | null>(null);
  useEffect(() => {
    if (favourites === null) {
      return;
    }
    isOwnList.current ??= shownIds.length === 0 || sameList(favourites, shownIds);
    if (isOwnList.current && !sameList(favourites, shownIds)) {
      router.replace(favouritesHref(favourites), { scroll: false });
    }
  }, [favourites, shownIds, router]);
  return null;
};
