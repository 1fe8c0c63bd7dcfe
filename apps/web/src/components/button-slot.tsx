import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

type TProps = { icon: LucideIcon; className?: string; children: ReactNode };

/**
 * The room of a secondary button that only appears once the page runs script (it needs the
 * browser: storage, the share sheet): drawn by the server at the button's size but unseen and
 * unheard, so nothing moves when the button takes its place (no layout shift). Without script it
 * stays an empty space of a button's width.
 */
export const ButtonSlot = ({ icon: Icon, className, children }: TProps) => (
  <span
    className={`button button--secondary button--slot${className ? ` ${className}` : ''}`}
    aria-hidden="true"
  >
    <Icon aria-hidden="true" focusable="false" className="button__icon" />
    {children}
  </span>
);
