import { Injectable } from '@nestjs/common';
import { ORDERS_CURSOR, type TListOrdersQuery, type TOrder, type TPage } from '@pets/contract';
import { readListCursor } from '../../http/pagination';
import { OrdersRepository } from './orders.repository';

@Injectable()
export class OrdersService {
  constructor(private readonly orders: OrdersRepository) {}

  /**
   * The adoption orders of one API key, newest first. The cursor carries the status filter of its
   * list (see PetsService.list); a bad or mismatched cursor is a 400 before any SQL.
   */
  listForKey(apiKeyId: bigint, query: TListOrdersQuery): Promise<TPage<TOrder>> {
    if (query.cursor === undefined) {
      return this.orders.listForKey(apiKeyId, query);
    }
    const { before, filters } = readListCursor(ORDERS_CURSOR, query.cursor, query);
    return this.orders.listForKey(apiKeyId, { ...filters, limit: query.limit, before });
  }
}
