'use server';

import { type TWebhookEndpointWithSecret, WEBHOOK_ENDPOINT_ID_PATTERN } from '@pets/contract';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { TCheckedFormState } from '@/components/form/use-checked-form';
import { textOf } from '@/lib/account-forms';
import { portalActionFailure } from '@/lib/portal-failure';
import { sendPortalForm, type TPortalForm } from '@/lib/portal-form';
import { checkEndpoint, ENDPOINT_WORDS, type TEndpointInput } from '@/lib/portal-form-checks';
import {
  EMPTY_ENDPOINT,
  type TEndpointField,
  type TEndpointValues,
} from '@/lib/portal-form-fields';
import { requireDeveloper } from '@/lib/session';
import { createKeyWebhook, testKeyWebhook } from '@/lib/site-api';

/**
 * The portal's webhook forms: add an endpoint for one of the organisation's keys (its signing
 * secret shown once, in this POST's answer), and send one a test event.
 */

export type TEndpointFormState = TCheckedFormState<TEndpointField, TEndpointValues> & {
  created?: { keyId: string; endpoint: TWebhookEndpointWithSecret };
};

const KEY_ID = /^[1-9][0-9]{0,17}$/;

const ENDPOINT_FORM: TPortalForm<TEndpointField, TEndpointValues, TEndpointInput> = {
  empty: EMPTY_ENDPOINT,
  check: checkEndpoint,
  words: {
    refused: 'That endpoint cannot be added.',
    notFound: 'There is no such key in your organisation.',
    form: ENDPOINT_WORDS,
  },
};

/** Adds the endpoint; a refusal comes back under its fields, the address and events kept. */
export const addEndpoint = async (
  _previous: TEndpointFormState,
  data: FormData,
): Promise<TEndpointFormState> => {
  const developer = await requireDeveloper();
  const answer = await sendPortalForm(data, ENDPOINT_FORM, ({ keyId, endpoint }) =>
    createKeyWebhook(developer.apiKey, keyId, endpoint),
  );
  if (!answer.ok) {
    return answer.state;
  }
  revalidatePath('/developers/webhooks');
  return {
    values: EMPTY_ENDPOINT,
    fieldErrors: {},
    created: { keyId: answer.values.keyId, endpoint: answer.data },
  };
};

/** Sends the endpoint a test event now; its page then lists the delivery. */
export const sendTestEvent = async (data: FormData): Promise<void> => {
  const developer = await requireDeveloper();
  const keyId = textOf(data, 'keyId');
  const endpointId = textOf(data, 'endpointId');
  if (!KEY_ID.test(keyId) || !WEBHOOK_ENDPOINT_ID_PATTERN.test(endpointId)) {
    redirect('/developers/webhooks');
  }
  const page = `/developers/webhooks/${keyId}/${endpointId}`;
  const answer = await testKeyWebhook(developer.apiKey, keyId, endpointId);
  if (!answer.ok) {
    const words = portalActionFailure(answer.failure, {
      refused: 'That endpoint cannot be tested.',
      notFound: 'There is no such endpoint.',
      whole: { keyId: 'Its key has expired or was revoked: its endpoints send nothing.' },
    });
    redirect(`${page}?${new URLSearchParams({ 'test-failed': words })}`);
  }
  revalidatePath(page);
  redirect(`${page}?tested=1`);
};
