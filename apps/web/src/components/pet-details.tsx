import type { TPet } from '@pets/contract/schemas';
import { CircleCheck, CircleHelp, CircleX, type LucideIcon } from 'lucide-react';
import {
  careLines,
  goodWithLines,
  specialNeedsText,
  type TDetailLine,
  type TDetailMark,
} from '@/lib/pet-details';

const MARKS: Record<TDetailMark, { icon: LucideIcon; className: string }> = {
  yes: { icon: CircleCheck, className: 'details__line--yes' },
  no: { icon: CircleX, className: 'details__line--no' },
  unknown: { icon: CircleHelp, className: 'details__line--unknown' },
};

/** Lines with their mark drawn beside the words: the icon is decoration, the words say it all. */
const Lines = ({ lines }: { lines: TDetailLine[] }) => (
  <ul className="details__lines">
    {lines.map(({ mark, text }) => {
      const { icon: Icon, className } = MARKS[mark];
      return (
        <li key={text} className={`details__line ${className}`}>
          <Icon aria-hidden="true" focusable="false" className="details__icon" />
          {text}
        </li>
      );
    })}
  </ul>
);

/**
 * The animal page's "Good with / Needs" block (issue 28): who the animal gets on with, its care and
 * character, and its special needs. Left out entirely when nothing of it is known.
 */
export const PetDetails = ({ pet }: { pet: TPet }) => {
  const goodWith = goodWithLines(pet);
  const care = careLines(pet);
  const needs = specialNeedsText(pet);
  if (goodWith.length === 0 && care.length === 0 && needs === undefined) {
    return null;
  }
  return (
    <section className="details" aria-labelledby="details-title">
      <h2 id="details-title" className="details__title">
        Good with, and needs
      </h2>
      {goodWith.length > 0 ? <Lines lines={goodWith} /> : null}
      {care.length > 0 ? <Lines lines={care} /> : null}
      {needs !== undefined ? (
        <div className="details__needs">
          <h3 className="details__subtitle">Special needs</h3>
          <p>{needs}</p>
        </div>
      ) : null}
    </section>
  );
};
