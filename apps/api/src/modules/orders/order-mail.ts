import {
  IN_REVIEW_ORDER_STATUSES,
  isWithdrawal,
  ORDER_CONFIRMATION,
  type TOrderStatus,
} from '@pets/contract';
import type { MailRepository } from '@pets/store/mail.repository';
import {
  orderMailFacts,
  type TOrderChange,
  type TOrderChangesHook,
  type TOrderMailFacts,
} from '@pets/store/orders.repository';
import type { TConfig } from '../../config';
import type {
  TApplicationMailData,
  TApplicationTemplate,
  TMailRequest,
} from '../../mail/mail-templates';

/** Where staff hear of new applications (STORE_EMAIL), and whether at once or in a daily digest. */
export type TStaffMail = { email: string; digest: TConfig['STAFF_DIGEST'] };

/** What the adopter is told when their application reaches a status. */
const ADOPTER_TEMPLATE: Record<TOrderStatus, TApplicationTemplate> = {
  unconfirmed: 'application-confirm',
  placed: 'application-received',
  waitlisted: 'application-waitlisted',
  approved: 'application-approved',
  declined: 'application-declined',
  completed: 'application-completed',
  cancelled: 'application-cancelled',
};

const dataOf = (facts: TOrderMailFacts): TApplicationMailData => ({
  orderId: facts.orderId,
  petId: facts.petId,
  petName: facts.petName,
  adopterName: facts.adopterName,
  placedAt: facts.placedAt,
  ...(facts.declineReason ? { declineReason: facts.declineReason } : {}),
  ...(facts.declineNote ? { declineNote: facts.declineNote } : {}),
});

/** The email of a question staff ask an adopter (OrdersService.askAdopter). */
export const questionMail = (facts: TOrderMailFacts, question: string): TMailRequest => ({
  template: 'application-question',
  to: facts.adopterEmail,
  orderId: facts.orderId,
  data: { ...dataOf(facts), question },
});

const IN_REVIEW: readonly TOrderStatus[] = IN_REVIEW_ORDER_STATUSES;

/**
 * An application that starts to count: placed, or confirmed by its adopter (APPLICATION_CONFIRMATION).
 * Staff hear of each once.
 */
const isArrival = (change: TOrderChange): boolean =>
  (change.from === undefined || change.from === ORDER_CONFIRMATION.from) &&
  IN_REVIEW.includes(change.to);

/**
 * An unconfirmed application closed (expired, cancelled, or declined when the animal went home):
 * its address never showed it wanted our mail, so it is written to once, with the confirmation.
 */
const isUnheard = (change: TOrderChange): boolean =>
  change.from === ORDER_CONFIRMATION.from && !IN_REVIEW.includes(change.to);

/** An approval that fell through (cancelled or declined): the animal's waiting list hears. */
const isRelease = (change: TOrderChange): boolean =>
  change.from === 'approved' && (change.to === 'cancelled' || change.to === 'declined');

/** An adopter withdrew their application from its page: staff hear of it at once. */
const isWithdrawnByAdopter = (change: TOrderChange): boolean =>
  change.by !== undefined && isWithdrawal({ to: change.to, by: change.by });

/**
 * Who hears about a transaction's order changes: each adopter whose application changed, by the
 * status it reached (but not of an unconfirmed one closed: isUnheard); staff (the store's address)
 * of each new or newly confirmed application, unless they read a daily digest instead
 * (STAFF_DIGEST), and of each application its adopter withdrew; and, when an approval
 * falls through, every adopter still waitlisted for that animal. Pure: the facts are read before.
 */
export const orderChangeMail = (
  changes: readonly TOrderChange[],
  facts: readonly TOrderMailFacts[],
  staff: TStaffMail,
): TMailRequest[] => {
  const byId = new Map(facts.map((each) => [each.orderId, each]));
  const changed = new Set(changes.map((change) => change.orderId));
  const mail: TMailRequest[] = [];
  for (const change of changes) {
    const order = byId.get(change.orderId);
    if (!order || isUnheard(change)) {
      continue;
    }
    const data = dataOf(order);
    mail.push({
      template: ADOPTER_TEMPLATE[change.to],
      to: order.adopterEmail,
      orderId: order.orderId,
      data,
    });
    if (isArrival(change) && staff.digest === 'immediate') {
      mail.push({
        template: 'staff-new-application',
        to: staff.email,
        orderId: order.orderId,
        data,
      });
    }
  }
  const released = new Set(changes.filter(isRelease).map((change) => change.petId));
  const waitlistOf = (petId: number) =>
    facts.filter(
      (order) =>
        order.petId === petId && order.status === 'waitlisted' && !changed.has(order.orderId),
    );
  for (const petId of released) {
    for (const order of waitlistOf(petId)) {
      mail.push({
        template: 'application-available-again',
        to: order.adopterEmail,
        orderId: order.orderId,
        data: dataOf(order),
      });
    }
  }
  // Whatever STAFF_DIGEST says: a withdrawal changes what staff do next (a visit is off, an
  // animal is free again), and there are few of them. Not of an unconfirmed application: staff
  // never heard of it.
  for (const change of changes.filter(isWithdrawnByAdopter)) {
    const order = byId.get(change.orderId);
    if (order && change.from && change.from !== ORDER_CONFIRMATION.from) {
      mail.push({
        template: 'staff-application-withdrawn',
        to: staff.email,
        orderId: order.orderId,
        data: {
          ...dataOf(order),
          from: change.from,
          waitlistTold: released.has(change.petId) ? waitlistOf(change.petId).length : 0,
        },
      });
    }
  }
  return mail;
};

/** The orders repository's change hook: the emails of the change, in its own transaction. */
export const orderMailHook =
  (outbox: MailRepository, staff: TStaffMail): TOrderChangesHook =>
  async (client, changes) => {
    const released = changes.filter(isRelease).map((change) => change.petId);
    const facts = await orderMailFacts(
      client,
      changes.map((change) => change.orderId),
      released,
    );
    await outbox.enqueue(client, ...orderChangeMail(changes, facts, staff));
  };
