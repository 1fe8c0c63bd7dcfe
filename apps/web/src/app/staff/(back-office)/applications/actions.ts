'use server';

import {
  ORDER_TRANSITIONS,
  type TErrorCode,
  type TOrderAction,
  ZDeclineOrder,
  ZIdempotencyKey,
  ZNewOrderNote,
  ZOrderIdParams,
  ZOrderNoteKind,
} from '@pets/contract/schemas';
import { redirect } from 'next/navigation';
import { SESSION_EXPIRED_PATH, SIGN_IN_PATH, staffKey } from '@/lib/session';
import { addOrderNote, askAdopter, transitionOrder } from '@/lib/staff-api';

/** A 409's code as the page words it. */
const CONFLICT_PROBLEMS: Partial<Record<TErrorCode | (string & {}), string>> = {
  idempotency_key_in_use: 'busy',
  pet_not_available: 'pet-not-available',
};

/** An action of the contract's state machine, whatever status it starts from. */
const isAction = (value: unknown): value is TOrderAction =>
  typeof value === 'string' && Object.hasOwn(ORDER_TRANSITIONS, value);

/**
 * Approves, declines (with the reason and note of its form), completes or cancels an
 * application, confirmed on its page first. Sent with the
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
  const decline = ZDeclineOrder.safeParse({
    reason: data.get('reason') ?? undefined,
    note: data.get('note') || undefined,
  });
  if (action === 'decline' && !decline.success) {
    redirect(`${page}?confirm=decline&problem=reason`);
  }
  const result = await transitionOrder(
    apiKey,
    action,
    orderId,
    token.data,
    decline.success ? decline.data : undefined,
  );
  if (result.ok) {
    redirect(`${page}?done=${action}`);
  }
  switch (result.failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'conflict':
      redirect(`${page}?problem=${CONFLICT_PROBLEMS[result.failure.code] ?? 'conflict'}`);
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

/**
 * Adds a private note, or (`kind=question`) emails the adopter a question that is kept with the
 * notes; either way back to the notes with what happened.
 */
export const addNote = async (data: FormData): Promise<void> => {
  const apiKey = await staffKey();
  if (!apiKey) {
    redirect(SIGN_IN_PATH);
  }
  const params = ZOrderIdParams.safeParse({ orderId: data.get('orderId') });
  const token = ZIdempotencyKey.safeParse(data.get('idempotencyKey'));
  const kind = ZOrderNoteKind.safeParse(data.get('kind') ?? 'note');
  if (!params.success || !token.success || !kind.success) {
    redirect('/staff/applications');
  }
  const page = `/staff/applications/${params.data.orderId}`;
  const isQuestion = kind.data === 'question';
  const note = ZNewOrderNote.safeParse({ text: data.get('text') ?? '' });
  if (!note.success) {
    redirect(`${page}?problem=${isQuestion ? 'question' : 'note'}#${isQuestion ? 'ask' : 'notes'}`);
  }
  const result = await (isQuestion ? askAdopter : addOrderNote)(
    apiKey,
    params.data.orderId,
    note.data.text,
    token.data,
  );
  if (result.ok) {
    redirect(`${page}?${isQuestion ? 'asked' : 'noted'}=1#notes`);
  }
  if (result.failure.kind === 'signed-out') {
    redirect(SESSION_EXPIRED_PATH);
  }
  redirect(
    `${page}?problem=${result.failure.kind === 'conflict' && result.failure.code === 'order_notes_full' ? 'notes-full' : 'failed'}#notes`,
  );
};
