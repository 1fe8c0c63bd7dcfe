import type { TPet } from '@pets/contract/schemas';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { profileFacts } from '@/lib/pet-profile';
import { FavouriteButton } from './favourite-button';
import { PetVisual } from './pet-visual';
import { StatusBadge } from './status-badge';

type TProps = {
  pet: TPet;
  categoryName: string | undefined;
  href: string;
  /**
   * The first row of the grid: its photos load at once, the rest as they scroll into view; `high`
   * for the page's first card (PetVisual).
   */
  isPriority?: boolean | 'high';
  /** The name's heading: `h3` inside a section with a heading of its own (the new arrivals). */
  heading?: 'h2' | 'h3';
  /** More to say under the card's facts (the reasons of "Find your match"). */
  children?: ReactNode;
};

/** An animal in the grid: the whole card is one link to its page (the name is the link text). */
export const PetCard = ({
  pet,
  categoryName,
  href,
  isPriority = false,
  heading,
  children,
}: TProps) => {
  const Name = heading ?? 'h2';
  // Age, sex and size: the arrival date waits for the animal's page.
  const facts = profileFacts({ ...pet, arrivedAt: null });
  return (
    <li className="card">
      {/* The name beside it says whose photo this is: the image itself adds nothing to read. */}
      <PetVisual
        photo={pet.photos[0]}
        categoryName={categoryName}
        size="card"
        alt=""
        isPriority={isPriority}
      />
      <div className="card__body">
        <Name className="card__name">
          {/* No prefetch: it would render each animal's metadata, one API call per card on every
              visit to the list, against the site's rate limit. Pages render fast enough on click. */}
          <Link href={href} className="card__link" prefetch={false}>
            {pet.name}
          </Link>
        </Name>
        {facts.length > 0 ? <p className="card__facts">{facts.join(' · ')}</p> : null}
        <p className="card__meta">
          <span className="card__category">{categoryName ?? 'Other'}</span>
          <StatusBadge status={pet.status} />
        </p>
        {children}
      </div>
      {/* Over the photo's corner, above the card's link area; after the name in reading order. */}
      <FavouriteButton petId={pet.id} name={pet.name} />
    </li>
  );
};
