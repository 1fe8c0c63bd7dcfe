'use client';

import { Heart } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import {
  FAVOURITES_EVENT,
  FAVOURITES_STORAGE_KEY,
  readStoredFavourites,
  toggleFavourite,
} from '@/lib/favourites';
import { ButtonSlot } from './button-slot';

/** The hearted ids as stored text: a string, so React compares snapshots by value. */
const storedText = (): string => {
  try {
    return window.localStorage.getItem(FAVOURITES_STORAGE_KEY) ?? '[]';
  } catch {
    return '[]'; // storage refused (private mode, a policy): the heart simply does not stay
  }
};

const subscribe = (onChange: () => void) => {
  const onStorage = (event: StorageEvent) => {
    if (event.key === FAVOURITES_STORAGE_KEY) {
      onChange();
    }
  };
  window.addEventListener('storage', onStorage); // other tabs
  window.addEventListener(FAVOURITES_EVENT, onChange); // this one
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(FAVOURITES_EVENT, onChange);
  };
};

/** The visitor's favourites, kept in this browser; `null` before the page has hydrated. */
export const useFavourites = (): number[] | null => {
  const text = useSyncExternalStore(subscribe, storedText, () => null);
  return text === null ? null : readStoredFavourites(text);
};

export const saveFavourites = (ids: readonly number[]) => {
  try {
    window.localStorage.setItem(FAVOURITES_STORAGE_KEY, JSON.stringify(ids));
  } catch {
    // Nowhere to keep it: the heart shows the choice until the page is left.
  }
  window.dispatchEvent(new Event(FAVOURITES_EVENT));
};

type TProps = { petId: number; name: string; variant?: 'card' | 'page' };

/**
 * The heart on a card and on an animal's page. On a card, an icon alone: a toggle button
 * (`aria-pressed`) named with the animal, so a screen reader says "Save Biscuit to favourites,
 * toggle button, not pressed", the filled heart showing it pressed. On an animal's page it has
 * words, which say the state: "Save", then "Saved". A toggle's name must not change with its state
 * (WAI-ARIA's button pattern), so there the words are the state instead of `aria-pressed`, and the
 * name starts with them ("Saved: remove Biscuit from favourites": what is seen is what is heard,
 * then what a press does). It needs the browser's storage, so it appears once the page runs
 * script (the server renders none; on the page, only its room).
 */
export const FavouriteButton = ({ petId, name, variant = 'card' }: TProps) => {
  const favourites = useFavourites();
  if (favourites === null) {
    // On the page, the button's room is kept (unseen) until it appears: the page does not move.
    return variant === 'page' ? (
      <ButtonSlot icon={Heart} className="favourite--page">
        Save
      </ButtonSlot>
    ) : null;
  }
  const isSaved = favourites.includes(petId);
  const toggle = () => saveFavourites(toggleFavourite(favourites, petId));
  if (variant === 'page') {
    return (
      <button
        type="button"
        className={`button button--secondary favourite--page${isSaved ? ' favourite--saved' : ''}`}
        // The name begins with the words shown (WCAG's label in name), then says what a press does.
        aria-label={
          isSaved ? `Saved: remove ${name} from favourites` : `Save ${name} to favourites`
        }
        onClick={toggle}
      >
        <Heart
          aria-hidden="true"
          focusable="false"
          className="button__icon"
          fill={isSaved ? 'currentColor' : 'none'}
        />
        {isSaved ? 'Saved' : 'Save'}
      </button>
    );
  }
  return (
    <button type="button" className="favourite" aria-pressed={isSaved} onClick={toggle}>
      <Heart
        aria-hidden="true"
        focusable="false"
        className="favourite__icon"
        fill={isSaved ? 'currentColor' : 'none'}
      />
      <span className="visually-hidden">{`Save ${name} to favourites`}</span>
    </button>
  );
};
