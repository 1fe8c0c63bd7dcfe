'use server';

import { MAX_CUSTOM_LIMIT } from '@pets/contract/rules';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { SESSION_EXPIRED_PATH, staffKey } from '@/lib/session';
import { decidePlanRequest, setOrganizationLimits, type TSiteFailure } from '@/lib/site-api';

const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

const back = (params: Record<string, string>): never =>
  redirect(`/staff/plans?${new URLSearchParams(params)}`);

const refusalOf = (failure: TSiteFailure): string => {
  switch (failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'refused':
    case 'invalid': {
      // The API names the field first ("rpm: ..."): the words alone here, as a sentence.
      const words = (failure.kind === 'refused' ? failure.message : failure.error.message).replace(
        /^[A-Za-z]+: /,
        '',
      );
      if (!words) {
        return 'That was refused.';
      }
      const sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
      return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
    }
    case 'not-found':
      return 'There is no such plan request.';
    default:
      return 'Something went wrong on our side. Please try again.';
  }
  return '';
};

/** A whole number typed in a limit field, or undefined when it is empty. */
const limitOf = (text: string): number | undefined | null => {
  const trimmed = text.trim().replaceAll(/[ ,_]/g, '');
  if (trimmed === '') {
    return undefined;
  }
  const value = Number(trimmed);
  return Number.isInteger(value) && value >= 1 && value <= MAX_CUSTOM_LIMIT ? value : null;
};

/**
 * Approves or declines a plan request from its row of the queue (a plain form: works without
 * JavaScript). Enterprise approvals carry the organisation's limits; the API says what is missing.
 */
export const decidePlan = async (data: FormData): Promise<void> => {
  const credential = (await staffKey()) ?? redirect(SESSION_EXPIRED_PATH);
  const id = textOf(data, 'id');
  if (!/^[1-9][0-9]{0,17}$/.test(id)) {
    redirect('/staff/plans');
  }
  const decision = textOf(data, 'decision') === 'approve' ? 'approve' : 'decline';
  const note = textOf(data, 'note').trim().slice(0, 1000);
  const rpm = decision === 'approve' ? limitOf(textOf(data, 'rpm')) : undefined;
  const rpd = decision === 'approve' ? limitOf(textOf(data, 'rpd')) : undefined;
  if (rpm === null || rpd === null) {
    back({
      refused: `Limits are whole numbers from 1 to ${MAX_CUSTOM_LIMIT.toLocaleString('en-GB')}.`,
      request: id,
    });
  }
  const answer = await decidePlanRequest(credential, id, {
    decision,
    ...(note === '' ? {} : { note }),
    ...(rpm ? { rpm } : {}),
    ...(rpd ? { rpd } : {}),
  });
  if (!answer.ok) {
    back({ refused: refusalOf(answer.failure), request: id });
    return;
  }
  revalidatePath('/staff/plans');
  back({ decided: answer.data.status, organization: answer.data.organization.name });
};

/** Sets an Enterprise organisation's limits again (from an approved request's row). */
export const setLimits = async (data: FormData): Promise<void> => {
  const credential = (await staffKey()) ?? redirect(SESSION_EXPIRED_PATH);
  const id = textOf(data, 'organizationId');
  if (!/^[1-9][0-9]{0,17}$/.test(id)) {
    redirect('/staff/plans?status=approved');
  }
  const rpm = limitOf(textOf(data, 'rpm'));
  const rpd = limitOf(textOf(data, 'rpd'));
  if (!rpm || !rpd) {
    back({
      status: 'approved',
      refused: `Enter both limits, whole numbers from 1 to ${MAX_CUSTOM_LIMIT.toLocaleString('en-GB')}.`,
    });
    return;
  }
  const answer = await setOrganizationLimits(credential, id, { rpm, rpd });
  if (!answer.ok) {
    back({ status: 'approved', refused: refusalOf(answer.failure) });
    return;
  }
  revalidatePath('/staff/plans');
  back({ status: 'approved', limited: answer.data.name });
};
