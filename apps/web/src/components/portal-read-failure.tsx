import { notFound, redirect } from 'next/navigation';
import type { ReactElement } from 'react';
import { ApiFailure } from '@/components/api-failure';
import { PORTAL_SESSION_EXPIRED_PATH } from '@/lib/session';
import type { TSiteFailure } from '@/lib/site-api';

/**
 * What a portal page shows when the read it is about failed: the portal's sign-in when the
 * session ended, the 404 page when there is no such thing, else the failure with a retry link.
 */
export const portalReadFailure = (failure: TSiteFailure, retryHref: string): ReactElement => {
  switch (failure.kind) {
    case 'signed-out':
      redirect(PORTAL_SESSION_EXPIRED_PATH);
      break;
    case 'not-found':
      notFound();
      break;
    case 'throttled':
      return (
        <ApiFailure
          failure={{ kind: 'rate-limited', retryAfterSeconds: failure.retryAfterSeconds }}
          retryHref={retryHref}
          headingLevel={1}
        />
      );
    case 'refused':
      if (failure.status === 404) {
        notFound();
      }
      return <ApiFailure failure={{ kind: 'failed' }} retryHref={retryHref} headingLevel={1} />;
    default:
      return <ApiFailure failure={failure} retryHref={retryHref} headingLevel={1} />;
  }
  return <ApiFailure failure={{ kind: 'failed' }} retryHref={retryHref} headingLevel={1} />;
};
