import { notFound, redirect } from 'next/navigation';
import type { ReactElement } from 'react';
import { ApiFailure } from '@/components/api-failure';
import { SESSION_EXPIRED_PATH } from '@/lib/session';
import { asPageFailure, type TStaffFailure } from '@/lib/staff-api';

/**
 * What a back-office page shows when the read it is about failed: the sign-in page when the
 * session ended, the 404 page when there is no such thing, else the failure with a retry link.
 */
export const staffReadFailure = (failure: TStaffFailure, retryHref: string): ReactElement => {
  if (failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  if (failure.kind === 'not-found') {
    notFound();
  }
  return <ApiFailure failure={asPageFailure(failure)} retryHref={retryHref} headingLevel={1} />;
};
