import { Injectable } from '@nestjs/common';
import {
  contract,
  ORDER_TRANSITIONS,
  ORDERS_CURSOR,
  type TListOrdersQuery,
  type TNewOrder,
  type TOrder,
  type TOrderAction,
  type TPage,
} from '@pets/contract';
import {
  OrderNotFoundError,
  OrderStatusError,
  OrdersRepository,
  PetNotAvailableError,
  type TOrderScope,
  UnknownPetError,
} from '@pets/store/orders.repository';
import type { TCaller } from '../../api-keys/caller';
import { AppError } from '../../core/app-error';
import { listPage, type TListPage } from '../../http/pagination';

/**
 * The rules of adoption orders. Who sees what: a partner key its own orders, a staff key every
 * order; an order the caller may not see is a 404 exactly like one that does not exist, so its
 * existence is not revealed. Which key may call which operation at all (403) is AdmissionGuard's,
 * from the contract; what a transition may start from is the contract's ORDER_TRANSITIONS.
 */
@Injectable()
export class OrdersService {
  constructor(private readonly orders: OrdersRepository) {}

  /**
   * A page of the orders the caller sees, newest first. The cursor carries the filters of its
   * list (see PetsService.list); a bad or mismatched cursor is a 400 before any SQL.
   */
  list(caller: TCaller, query: TListOrdersQuery): Promise<TListPage<TPage<TOrder>>> {
    const scope = scopeOf(caller);
    return listPage(ORDERS_CURSOR, contract.orders.listOrders.path, query, (filters, before) =>
      this.orders.list(scope, { ...filters, before }),
    );
  }

  /** 404 for an unknown animal, 409 `pet_not_available` for one that is not available. */
  place(caller: TCaller, order: TNewOrder): Promise<TOrder> {
    return this.orders
      .place({ ...order, apiKeyId: caller.apiKeyId, by: caller.start })
      .catch((error: unknown) => {
        if (error instanceof UnknownPetError) {
          throw new AppError('not_found', `No animal has id ${order.petId}.`);
        }
        if (error instanceof PetNotAvailableError) {
          throw new AppError(
            'pet_not_available',
            `Animal ${order.petId} is ${error.status}, not available: only an available animal can be ordered.`,
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
    return order;
  }

  /**
   * Applies a transition; 404 for an order the caller does not see, 409
   * `order_transition_not_allowed` (nothing changed) when the order's status is not one the
   * transition starts from.
   */
  transition(caller: TCaller, id: number, action: TOrderAction): Promise<TOrder> {
    const { from, to } = ORDER_TRANSITIONS[action];
    return this.orders
      .transition(id, scopeOf(caller), { from, to, by: caller.start })
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
        throw error;
      });
  }
}

const scopeOf = (caller: TCaller): TOrderScope => ({
  apiKeyId: caller.role === 'staff' ? null : caller.apiKeyId,
});

const notFound = (id: number): AppError => new AppError('not_found', `No order has id ${id}.`);
