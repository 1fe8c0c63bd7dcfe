import type { ReactNode } from 'react';

/** The top of a page, as every page has it: its one heading and the lead paragraph under it. */
export const PageIntro = ({ title, children }: { title: ReactNode; children: ReactNode }) => (
  <div className="page-intro">
    <h1 className="page-title">{title}</h1>
    <p className="lead">{children}</p>
  </div>
);
