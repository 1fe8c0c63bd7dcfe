import type { TOrderStatus } from './order';

/**
 * Each status of an application in the adopter's words: the status page and the email that lists
 * an adopter's applications say it the same way.
 */
export const ORDER_STATUS_WORDS: Record<TOrderStatus, string> = {
  unconfirmed: 'Waiting for you to confirm it',
  placed: 'Received, in review',
  waitlisted: 'On the waiting list',
  approved: 'Approved',
  declined: 'Declined',
  completed: 'Adopted',
  cancelled: 'Closed',
};
