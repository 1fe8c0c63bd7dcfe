import { ArrowLeft, ChevronLeft } from 'lucide-react';
import Link from 'next/link';
import type { ReactNode } from 'react';

const ICONS = { arrow: ArrowLeft, chevron: ChevronLeft };

/**
 * The link above a page's title back to where the reader came from: an arrow on the site, a
 * chevron in the back office.
 */
export const BackLink = ({
  href,
  icon = 'arrow',
  children,
}: {
  href: string;
  icon?: keyof typeof ICONS;
  children: ReactNode;
}) => {
  const Icon = ICONS[icon];
  return (
    <Link href={href} className="back-link">
      <Icon aria-hidden="true" focusable="false" className="back-link__icon" />
      {children}
    </Link>
  );
};
