import { SearchX } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { StatePanel } from '@/components/state-panel';

export const metadata: Metadata = { title: 'Not found' };

/** Unknown addresses and unknown animals: the same calm tone as every other state. */
const NotFound = () => (
  <StatePanel
    icon={SearchX}
    title="We couldn't find that animal or page"
    headingLevel={1}
    actions={
      <Link href="/" className="button">
        See the animals looking for a home
      </Link>
    }
  >
    <p>The address may be mistyped, or the animal may no longer be listed.</p>
  </StatePanel>
);

export default NotFound;
