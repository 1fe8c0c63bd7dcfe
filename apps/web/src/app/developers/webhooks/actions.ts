'use server';

import {
  ALL_EVENT_TYPES,
  type TWebhookEndpointWithSecret,
  WEBHOOK_ENDPOINT_ID_PATTERN,
  ZNewWebhookEndpoint,
} from '@pets/contract';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { textOf } from '@/lib/account-forms';
import { portalActionFailure } from '@/lib/portal-failure';
import { requireDeveloper } from '@/lib/session';
import { createKeyWebhook, testKeyWebhook } from '@/lib/site-api';

/**
 * The portal's webhook forms: add an endpoint for one of the organisation's keys (its signing
 * secret shown once, in this POST's answer), and send one a test event.
 */

export type TEndpointFormState = {
  error?: string;
  created?: { keyId: string; endpoint: TWebhookEndpointWithSecret };
};

const KEY_ID = /^[1-9][0-9]{0,17}$/;

const WORDS = {
  refused: 'That endpoint cannot be added.',
  notFound: 'There is no such key in your organisation.',
};

export const addEndpoint = async (
  _previous: TEndpointFormState,
  data: FormData,
): Promise<TEndpointFormState> => {
  const developer = await requireDeveloper();
  const keyId = textOf(data, 'keyId');
  if (!KEY_ID.test(keyId)) {
    return { error: 'Choose the key the endpoint belongs to.' };
  }
  const events = data.getAll('events').map(String);
  const description = textOf(data, 'description').trim();
  const input = ZNewWebhookEndpoint.safeParse({
    url: textOf(data, 'url').trim(),
    events: events.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : events,
    ...(description === '' ? {} : { description }),
  });
  if (!input.success) {
    const [issue] = input.error.issues;
    return {
      error:
        issue?.path[0] === 'events'
          ? 'Choose at least one kind of event, or every event.'
          : `Check the address: ${issue?.message ?? 'it is not one we can send to'}.`,
    };
  }
  const answer = await createKeyWebhook(developer.apiKey, keyId, input.data);
  if (!answer.ok) {
    return { error: portalActionFailure(answer.failure, WORDS) };
  }
  revalidatePath('/developers/webhooks');
  return { created: { keyId, endpoint: answer.data } };
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
    });
    redirect(`${page}?${new URLSearchParams({ 'test-failed': words })}`);
  }
  revalidatePath(page);
  redirect(`${page}?tested=1`);
};
