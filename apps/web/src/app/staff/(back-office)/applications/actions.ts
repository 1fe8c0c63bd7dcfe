'use server';

import { ZIdempotencyKey, ZOrderIdParams } from '@pets/contract/schemas';
import { redirect } from 'next/navigation';
import { SESSION_EXPIRED_PATH, SIGN_IN_PATH, staffKey } from '@/lib/session';
import { transitionOrder } from '@/lib/staff-api';

const ACTIONS = ['approve', 'complete', 'cancel'] as const;
type TAction = (typeof ACTIONS)[number];

const isAction = (value: unknown): value is TAction => ACTIONS.some((each) => each === value);

/**
 * Approves, completes or cancels an application, confirmed on its page first. Sent with the
 * signed-in staff member's own key and the Idempotency-Key rendered into the confirmation form,
 * so a double click or a resent form is one change. Without a session it does nothing and goes
 * to sign in.
 */
export const changeOrder = async (data: FormData): Promise<void> => {
  const apiKey = await staffKey();
  if (!apiKey) {
    redirect(SIGN_IN_PATH);
  }
  const action = data.get('action');
  const params = ZOrderIdParams.safeParse({ orderId: data.get('orderId') });
  const token = ZIdempotencyKey.safeParse(data.get('idempotencyKey'));
  if (!isAction(action) || !params.success || !token.success) {
    redirect('/staff/applications');
  }
  const orderId = params.data.orderId;
  const page = `/staff/applications/${orderId}`;
  const result = await transitionOrder(apiKey, action, orderId, token.data);
  if (result.ok) {
    redirect(`${page}?done=${action}`);
  }
  switch (result.failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'conflict':
      redirect(
        `${page}?problem=${result.failure.code === 'idempotency_key_in_use' ? 'busy' : 'conflict'}`,
      );
      break;
    case 'rate-limited':
      redirect(`${page}?problem=rate-limited&wait=${result.failure.retryAfterSeconds}`);
      break;
    case 'not-found':
      redirect(`${page}`);
      break;
    case 'unavailable':
      redirect(`${page}?problem=unavailable`);
      break;
    default:
      redirect(`${page}?problem=failed`);
  }
};
