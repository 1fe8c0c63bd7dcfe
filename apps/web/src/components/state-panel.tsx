import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

type TProps = {
  icon: LucideIcon;
  title: string;
  /** The heading level: h1 when the state is the whole page, h2 inside a page. */
  headingLevel?: 1 | 2;
  children?: ReactNode;
  actions?: ReactNode;
  /** `alert` for failures, `status` for quiet news (such as an empty list). */
  role?: 'alert' | 'status';
};

/** A state of a page (empty, not found, rate limited, unreachable), in one calm design. */
export const StatePanel = ({
  icon: Icon,
  title,
  headingLevel = 2,
  children,
  actions,
  role,
}: TProps) => {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="state" role={role} aria-labelledby="state-title">
      <Icon aria-hidden="true" focusable="false" className="state__icon" strokeWidth={1.5} />
      <Heading id="state-title" className="state__title">
        {title}
      </Heading>
      {children ? <div className="state__text">{children}</div> : null}
      {actions ? <div className="state__actions">{actions}</div> : null}
    </section>
  );
};
