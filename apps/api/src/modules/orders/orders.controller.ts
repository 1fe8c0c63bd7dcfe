import { Controller } from '@nestjs/common';
import { contract, Header, nextPageLink } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { OrdersService } from './orders.service';

const { orders } = contract;

/**
 * One handler per operation, so that a decorator can apply to one of them: the writes (the POSTs)
 * are where `Idempotency-Key` support goes, one line each (the idempotency lane's `@Idempotent()`,
 * above `@TsRestHandler`). Who may call each one (403) is AccessGuard's, from the contract.
 */
@Controller()
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @TsRestHandler(orders.listOrders)
  listOrders(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(orders.listOrders, async ({ query }) => {
      const page = await this.orders.list(caller, query);
      if (page.nextCursor) {
        setHeader(Header.link, nextPageLink(orders.listOrders.path, query, page.nextCursor));
      }
      return { status: 200 as const, body: page.items };
    });
  }

  @TsRestHandler(orders.getOrder)
  getOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.getOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.get(caller, params.orderId),
    }));
  }

  // Idempotency-Key: @Idempotent() goes here.
  @TsRestHandler(orders.placeOrder)
  placeOrder(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(orders.placeOrder, async ({ body }) => {
      const order = await this.orders.place(caller, body);
      setHeader(Header.location, `${orders.listOrders.path}/${order.id}`);
      return { status: 201 as const, body: order };
    });
  }

  // Idempotency-Key: @Idempotent() goes here.
  @TsRestHandler(orders.cancelOrder)
  cancelOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.cancelOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.transition(caller, params.orderId, 'cancel'),
    }));
  }

  // Idempotency-Key: @Idempotent() goes here.
  @TsRestHandler(orders.approveOrder)
  approveOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.approveOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.transition(caller, params.orderId, 'approve'),
    }));
  }

  // Idempotency-Key: @Idempotent() goes here.
  @TsRestHandler(orders.completeOrder)
  completeOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.completeOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.transition(caller, params.orderId, 'complete'),
    }));
  }
}
