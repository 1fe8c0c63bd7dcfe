import { CloudOff, Hourglass, SearchX, TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import type { TApiFailure } from '@/lib/api-result';
import { rateLimitedMessage } from '@/lib/messages';
import { StatePanel } from './state-panel';

type TProps = {
  failure: TApiFailure;
  /** Where "Try again" leads: the same address, so the visitor keeps their filters. */
  retryHref: string;
  headingLevel?: 1 | 2;
};

/** What a visitor sees when the API could not give a page its data. No codes, no traces. */
export const ApiFailure = ({ failure, retryHref, headingLevel }: TProps) => {
  const retry = (
    <Link href={retryHref} className="button" prefetch={false}>
      Try again
    </Link>
  );
  switch (failure.kind) {
    case 'rate-limited':
      return (
        <StatePanel
          icon={Hourglass}
          title="Just a moment"
          headingLevel={headingLevel}
          role="alert"
          actions={retry}
        >
          <p>{rateLimitedMessage(failure.retryAfterSeconds)}</p>
        </StatePanel>
      );
    case 'unavailable':
      return (
        <StatePanel
          icon={CloudOff}
          title="We can't reach our animal records"
          headingLevel={headingLevel}
          role="alert"
          actions={retry}
        >
          <p>This is on our side, not yours. Please try again in a minute.</p>
        </StatePanel>
      );
    case 'not-found':
      return (
        <StatePanel
          icon={SearchX}
          title="We couldn't find that"
          headingLevel={headingLevel}
          role="alert"
        >
          <p>
            It may have been removed. <Link href="/">See the animals looking for a home</Link>.
          </p>
        </StatePanel>
      );
    default:
      return (
        <StatePanel
          icon={TriangleAlert}
          title="Something went wrong on our side"
          headingLevel={headingLevel}
          role="alert"
          actions={retry}
        >
          <p>We couldn't load this page. Trying again usually helps.</p>
        </StatePanel>
      );
  }
};
