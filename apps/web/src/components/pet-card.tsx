import type { TPet } from '@pets/contract/schemas';
import Link from 'next/link';
import { CategoryVisual } from './category-visual';
import { StatusBadge } from './status-badge';

type TProps = { pet: TPet; categoryName: string | undefined; href: string };

/** An animal in the grid: the whole card is one link to its page (the name is the link text). */
export const PetCard = ({ pet, categoryName, href }: TProps) => (
  <li className="card">
    <CategoryVisual categoryName={categoryName} size="card" />
    <div className="card__body">
      <h2 className="card__name">
        {/* No prefetch: it would render each animal's metadata, one API call per card on every
            visit to the list, against the site's rate limit. Pages render fast enough on click. */}
        <Link href={href} className="card__link" prefetch={false}>
          {pet.name}
        </Link>
      </h2>
      <p className="card__meta">
        <span className="card__category">{categoryName ?? 'Other'}</span>
        <StatusBadge status={pet.status} />
      </p>
    </div>
  </li>
);
