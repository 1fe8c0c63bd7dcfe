import type { TOrderStatus } from '@pets/contract';
import type { MailRepository } from '@pets/store/mail.repository';
import {
  orderMailFacts,
  type TOrderChange,
  type TOrderChangesHook,
  type TOrderMailFacts,
} from '@pets/store/orders.repository';
import type {
  TApplicationMailData,
  TApplicationTemplate,
  TMailRequest,
} from '../../mail/mail-templates';

/** What the adopter is told when their application reaches a status. */
const ADOPTER_TEMPLATE: Record<TOrderStatus, TApplicationTemplate> = {
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

/** An approval that fell through (cancelled or declined): the animal's waiting list hears. */
const isRelease = (change: TOrderChange): boolean =>
  change.from === 'approved' && (change.to === 'cancelled' || change.to === 'declined');

/**
 * Who hears about a transaction's order changes: each adopter whose application changed, by the
 * status it reached; staff (the store's address) of each new application; and, when an approval
 * falls through, every adopter still waitlisted for that animal. Pure: the facts are read before.
 */
export const orderChangeMail = (
  changes: readonly TOrderChange[],
  facts: readonly TOrderMailFacts[],
  staffEmail: string,
): TMailRequest[] => {
  const byId = new Map(facts.map((each) => [each.orderId, each]));
  const changed = new Set(changes.map((change) => change.orderId));
  const mail: TMailRequest[] = [];
  for (const change of changes) {
    const order = byId.get(change.orderId);
    if (!order) {
      continue;
    }
    const data = dataOf(order);
    mail.push({
      template: ADOPTER_TEMPLATE[change.to],
      to: order.adopterEmail,
      orderId: order.orderId,
      data,
    });
    if (change.from === undefined) {
      mail.push({
        template: 'staff-new-application',
        to: staffEmail,
        orderId: order.orderId,
        data,
      });
    }
  }
  const released = new Set(changes.filter(isRelease).map((change) => change.petId));
  for (const order of facts) {
    if (released.has(order.petId) && order.status === 'waitlisted' && !changed.has(order.orderId)) {
      mail.push({
        template: 'application-available-again',
        to: order.adopterEmail,
        orderId: order.orderId,
        data: dataOf(order),
      });
    }
  }
  return mail;
};

/** The orders repository's change hook: the emails of the change, in its own transaction. */
export const orderMailHook =
  (outbox: MailRepository, staffEmail: string): TOrderChangesHook =>
  async (client, changes) => {
    const released = changes.filter(isRelease).map((change) => change.petId);
    const facts = await orderMailFacts(
      client,
      changes.map((change) => change.orderId),
      released,
    );
    await outbox.enqueue(client, ...orderChangeMail(changes, facts, staffEmail));
  };
