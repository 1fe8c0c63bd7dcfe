'use client';

import { TriangleAlert } from 'lucide-react';
import { StatePanel } from '@/components/state-panel';

/**
 * Anything a page did not expect. The error itself stays in the server's log: a visitor only ever
 * gets this message (in production Next.js sends no message or trace of a server error).
 */
const ErrorPage = ({ retry }: { error: unknown; retry: () => void }) => (
  <StatePanel
    icon={TriangleAlert}
    title="Something went wrong on our side"
    headingLevel={1}
    role="alert"
    actions={
      <button type="button" className="button" onClick={() => retry()}>
        Try again
      </button>
    }
  >
    <p>We couldn't load this page. Trying again usually helps.</p>
  </StatePanel>
);

export default ErrorPage;
