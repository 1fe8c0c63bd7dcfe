import type { TOrder, TOrderStatus } from '@pets/contract/schemas';
import {
  DECLINE_REASON_WORDS,
  isWithdrawal,
  isWithdrawn,
  OPEN_ORDER_STATUSES,
  ORDER_CONFIRMATION,
  ORDER_CONFIRMATION_HOURS,
} from '@pets/contract/schemas';
import { formatStoreInstant, type TStoreConfig } from '@pets/contract/store';
import { formatReference } from './application-reference';

/**
 * An application as its adopter may see it on the status page: its reference, the animal, where
 * it stands and each step so far in plain words. Nothing about the keys that made the changes.
 */
export type TApplicationView = {
  reference: string;
  petId: number;
  petName: string | undefined;
  status: TOrderStatus;
  /** Whether its adopter may still withdraw it from its page: open, and confirmed. */
  isWithdrawable: boolean;
  /** Whether its adopter withdrew it. */
  isWithdrawn: boolean;
  /** Where it stands now and what comes next, in one or two sentences. */
  summary: string;
  /** When declined: the store's reason in kind words, and its own note if it wrote one. */
  declined?: { reason: string; note?: string | undefined } | undefined;
  steps: { status: TOrderStatus; title: string; at: string; when: string }[];
};

const STEP_TITLES: Record<TOrderStatus, string> = {
  unconfirmed: 'Application sent, waiting for you to confirm it',
  placed: 'Application received',
  waitlisted: 'On the waiting list',
  approved: 'Approved by the store',
  declined: 'Not taken further',
  completed: 'Adoption completed: gone home',
  cancelled: 'Application closed',
};

const summaryOf = (status: TOrderStatus, animal: string, replyDays: number): string => {
  switch (status) {
    case 'unconfirmed':
      return `The store has not seen this application yet: it counts once you confirm it from the link in the email we sent you. An application not confirmed within ${ORDER_CONFIRMATION_HOURS} hours is cancelled.`;
    case 'placed':
      return `The store has your application and will contact you within ${replyDays} working ${replyDays === 1 ? 'day' : 'days'} to arrange a visit with ${animal}.`;
    case 'waitlisted':
      return `The store has approved another application for ${animal} for now, and kept yours on the waiting list. If that adoption does not go ahead, the store will look at yours again.`;
    case 'declined':
      return `The store has decided not to take this application for ${animal} further. Thank you for wanting to give an animal a home.`;
    case 'approved':
      return `The store has approved your application. Come and meet ${animal}; the store will agree the day of the adoption with you.`;
    case 'completed':
      return `${animal} has gone home with you. Thank you for adopting!`;
    case 'cancelled':
      return `This application was closed, so ${animal} is not reserved for you. If you think this is a mistake, contact the store.`;
    default:
      return '';
  }
};

const OPEN: readonly TOrderStatus[] = OPEN_ORDER_STATUSES;

export const toApplicationView = (
  order: TOrder,
  petName: string | undefined,
  store: Pick<TStoreConfig, 'replyDays' | 'timeZone'>,
): TApplicationView => ({
  reference: formatReference(order.id),
  petId: order.petId,
  petName,
  status: order.status,
  // An unconfirmed one is simply left: the store cancels it on its own and never hears of it.
  isWithdrawable: OPEN.includes(order.status) && order.status !== ORDER_CONFIRMATION.from,
  isWithdrawn: isWithdrawn(order),
  summary: isWithdrawn(order)
    ? `You withdrew this application, and the store has been told. If you would like to adopt ${petName ?? 'this animal'} after all, apply again while they are looking for a home.`
    : summaryOf(order.status, petName ?? 'the animal', store.replyDays),
  declined: order.declineReason
    ? { reason: DECLINE_REASON_WORDS[order.declineReason].adopter, note: order.declineNote }
    : undefined,
  steps: order.history.map((entry) => ({
    status: entry.to,
    title: isWithdrawal(entry)
      ? 'Withdrawn by you'
      : entry.from === 'unconfirmed' && entry.to !== 'cancelled' && entry.to !== 'declined'
        ? `Confirmed by you: ${STEP_TITLES[entry.to].toLowerCase()}`
        : STEP_TITLES[entry.to],
    at: entry.at,
    // "23 November 2026, 10:15 GMT": on the store's clock, with its zone, for any reader.
    when: formatStoreInstant(entry.at, store.timeZone, { month: 'long' }),
  })),
});
