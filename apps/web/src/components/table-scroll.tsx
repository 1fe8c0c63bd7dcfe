import type { ReactNode } from 'react';

/**
 * A wide table that scrolls sideways on a phone. The region is in the tab order so a keyboard
 * can scroll it too (axe's scrollable-region-focusable), and named for screen readers.
 */
export const TableScroll = ({ label, children }: { label: string; children: ReactNode }) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard's focus to be scrolled without a mouse.
  <section className="table-scroll" aria-label={label} tabIndex={0}>
    {children}
  </section>
);
