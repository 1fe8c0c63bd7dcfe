import { ChevronLeft, ChevronRight } from 'lucide-react';
import Link from 'next/link';

type TProps = { previousHref?: string; nextHref?: string };

/** "Previous" and "Next" below the grid; both keep the current filters. */
export const Pagination = ({ previousHref, nextHref }: TProps) => {
  if (!previousHref && !nextHref) {
    return null;
  }
  return (
    <nav aria-label="Pages" className="pagination">
      {previousHref ? (
        <Link href={previousHref} className="button button--secondary" rel="prev" scroll>
          <ChevronLeft aria-hidden="true" focusable="false" className="button__icon" />
          Previous
        </Link>
      ) : null}
      {nextHref ? (
        <Link
          href={nextHref}
          className="button button--secondary pagination__next"
          rel="next"
          scroll
        >
          Next
          <ChevronRight aria-hidden="true" focusable="false" className="button__icon" />
        </Link>
      ) : null}
    </nav>
  );
};
