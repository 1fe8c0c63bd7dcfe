import type { ReactNode } from 'react';

/** A titled box of a page (`.panel`): its heading names the section for assistive technology. */
export const Panel = ({
  id,
  title,
  children,
}: {
  id: string;
  title: ReactNode;
  children: ReactNode;
}) => (
  <section className="panel" aria-labelledby={`${id}-title`}>
    <h2 id={`${id}-title`} className="panel__title">
      {title}
    </h2>
    {children}
  </section>
);
