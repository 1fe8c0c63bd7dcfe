import { Inject, Injectable } from '@nestjs/common';
import {
  contract,
  ORDER_CONFIRMATION,
  ORDER_TRANSITIONS,
  ORDERS_CURSOR,
  type TAdopterQuestion,
  type TDeclineOrder,
  type TListOrdersQuery,
  type TNewOrder,
  type TNewOrderNote,
  type TOrder,
  type TOrderAction,
  type TOrderNote,
  type TPage,
} from '@pets/contract';
import { isUnknownPet } from '@pets/store/errors';
import { MailRepository } from '@pets/store/mail.repository';
import {
  OrderAlreadyOpenError,
  OrderNotesFullError,
  OrderNotFoundError,
  OrderStatusError,
  OrdersRepository,
  orderMailFacts,
  PetNotAvailableError,
  type TOrderScope,
} from '@pets/store/orders.repository';
import { auditActorOf, type TCaller } from '../../api-keys/caller';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { AppError } from '../../core/app-error';
import { listPage, type TListPage } from '../../http/pagination';
import { questionMail } from './order-mail';

/**
 * The rules of adoption orders. Who sees what: a partner key its own orders, a staff key every
 * order; an order the caller may not see is a 404 exactly like one that does not exist, so its
 * existence is not revealed. Which key may call which operation at all (403) is AdmissionGuard's,
 * from the contract; what a transition may start from is the contract's ORDER_TRANSITIONS.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly outbox: MailRepository,
    @Inject(CONFIG) private readonly config: TConfig,
  ) {}

  /**
   * A page of the orders the caller sees, newest first. The cursor carries the filters of its
   * list (see PetsService.list); a bad or mismatched cursor is a 400 before any SQL.
   */
  list(caller: TCaller, query: TListOrdersQuery): Promise<TListPage<TPage<TOrder>>> {
    const scope = scopeOf(caller);
    return listPage(ORDERS_CURSOR, contract.orders.listOrders.path, query, (filters, before) =>
      this.orders
        .list(scope, { ...filters, before })
        .then((page) =>
          caller.role === 'staff'
            ? page
            : { ...page, items: page.items.map((order) => asSeenBy(caller, order)) },
        ),
    );
  }

  /**
   * 404 for an unknown animal, 409 `pet_not_available` for one that is not available, 409
   * `order_already_open` when this adopter email has an open order for it (worded without
   * anything about that order: it may be another key's). With APPLICATION_CONFIRMATION=email the
   * order starts `unconfirmed`: its adopter confirms it from the first email.
   */
  place(caller: TCaller, order: TNewOrder): Promise<TOrder> {
    const status =
      this.config.APPLICATION_CONFIRMATION === 'email'
        ? ORDER_CONFIRMATION.from
        : ORDER_CONFIRMATION.to;
    return this.orders
      .place({ ...order, status, apiKeyId: caller.apiKeyId, by: caller.start })
      .catch((error: unknown) => {
        if (isUnknownPet(error)) {
          throw new AppError('not_found', `No animal has id ${order.petId}.`);
        }
        if (error instanceof PetNotAvailableError) {
          throw new AppError(
            'pet_not_available',
            `Animal ${order.petId} is ${error.status}, not available: only an available animal can be ordered.`,
          );
        }
        if (error instanceof OrderAlreadyOpenError) {
          throw new AppError(
            'order_already_open',
            `An application for animal ${order.petId} with this adopter email is already open: one at a time per adopter and animal. Nothing was created.`,
          );
        }
        throw error;
      });
  }

  async get(caller: TCaller, id: number): Promise<TOrder> {
    const order = await this.orders.get(id, scopeOf(caller));
    if (!order) {
      throw notFound(id);
    }
    return asSeenBy(caller, order);
  }

  /**
   * Applies a transition and its side effects; 404 for an order the caller does not see, 409
   * `order_transition_not_allowed` (nothing changed) when the order's status is not one the
   * transition starts from, 409 `pet_not_available` to approve for an animal that is not
   * available. `decline`: the reason and note of a decline.
   */
  transition(
    caller: TCaller,
    id: number,
    action: TOrderAction,
    decline?: TDeclineOrder,
  ): Promise<TOrder> {
    const { from } = ORDER_TRANSITIONS[action];
    return this.orders
      .transition(id, scopeOf(caller), {
        action,
        by: caller.start,
        byName: personOf(caller),
        actor: auditActorOf(caller),
        decline,
      })
      .then((order) => asSeenBy(caller, order))
      .catch((error: unknown) => {
        if (error instanceof OrderNotFoundError) {
          throw notFound(id);
        }
        if (error instanceof OrderStatusError) {
          throw new AppError(
            'order_transition_not_allowed',
            `Order ${id} is ${error.status}; ${action} needs an order that is ${from.join(' or ')}. Nothing changed.`,
          );
        }
        if (error instanceof PetNotAvailableError) {
          throw new AppError(
            'pet_not_available',
            `Animal ${error.petId} is ${error.status}, not available: an order is approved only for an available animal (one approval at a time). Nothing changed.`,
          );
        }
        throw error;
      });
  }

  /**
   * Staff notes on an application (staff keys only: the admission's, from the contract), oldest
   * first; 404 for an unknown order.
   */
  async notes(id: number): Promise<TOrderNote[]> {
    const notes = await this.orders.notes(id);
    if (!notes) {
      throw notFound(id);
    }
    return notes;
  }

  /** A new note signed with the calling key's name; 409 `order_notes_full` past the limit. */
  addNote(caller: TCaller, id: number, note: TNewOrderNote): Promise<TOrderNote> {
    return this.added(id, this.orders.addNote(id, { ...signedBy(caller), kind: 'note', ...note }));
  }

  /**
   * Emails the adopter a question and keeps it with the notes (kind `question`), both in one
   * transaction: the email is queued exactly when the question is recorded.
   */
  askAdopter(caller: TCaller, id: number, question: TAdopterQuestion): Promise<TOrderNote> {
    return this.added(
      id,
      this.orders.addNote(
        id,
        { ...signedBy(caller), kind: 'question', ...question },
        async (client) => {
          const [facts] = await orderMailFacts(client, [id], []);
          if (facts) {
            await this.outbox.enqueue(client, questionMail(facts, question.text));
          }
        },
      ),
    );
  }

  /** A note's answer: 404 for an unknown order, 409 `order_notes_full` past the limit. */
  private async added(id: number, adding: Promise<TOrderNote | null>): Promise<TOrderNote> {
    try {
      const added = await adding;
      if (!added) {
        throw notFound(id);
      }
      return added;
    } catch (error) {
      if (error instanceof OrderNotesFullError) {
        throw new AppError(
          'order_notes_full',
          `Application ${id} has the most notes one application may have; nothing was added.`,
        );
      }
      throw error;
    }
  }
}

/** The person behind a session credential (a change made through the store's site), if any. */
const personOf = (caller: TCaller): string | undefined =>
  caller.owner?.type === 'person' ? caller.owner.name : undefined;

/**
 * An order as the caller may see it: staff see who made each change by name; a partner sees the
 * keys' display starts only, never the names of the store's people.
 */
const asSeenBy = (caller: TCaller, order: TOrder): TOrder =>
  caller.role === 'staff'
    ? order
    : { ...order, history: order.history.map(({ byName: _byName, ...entry }) => entry) };

/**
 * Who signs a note, and for staff callers (a person or a script's staff key) the audit log's
 * actor; partners' traffic is not audited (the access log has it).
 */
const signedBy = (caller: TCaller) => ({
  apiKeyId: caller.apiKeyId,
  author: caller.name,
  actor: auditActorOf(caller),
});

const scopeOf = (caller: TCaller): TOrderScope => ({
  apiKeyId: caller.role === 'staff' ? null : caller.apiKeyId,
});

const notFound = (id: number): AppError => new AppError('not_found', `No order has id ${id}.`);
