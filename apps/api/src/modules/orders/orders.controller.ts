import { Controller } from '@nestjs/common';
import { contract, Header, nextPageLink } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { OrdersService } from './orders.service';

const { orders } = contract;

/**
 * One handler per operation. Who may call each one (403) is AdmissionGuard's, and which take
 * `Idempotency-Key` (every POST) the IdempotencyInterceptor's, both from the contract.
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

  @TsRestHandler(orders.placeOrder)
  placeOrder(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(orders.placeOrder, async ({ body }) => {
      const order = await this.orders.place(caller, body);
      setHeader(Header.location, `${orders.listOrders.path}/${order.id}`);
      return { status: 201 as const, body: order };
    });
  }

  @TsRestHandler(orders.cancelOrder)
  cancelOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.cancelOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.transition(caller, params.orderId, 'cancel'),
    }));
  }

  @TsRestHandler(orders.approveOrder)
  approveOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.approveOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.transition(caller, params.orderId, 'approve'),
    }));
  }

  @TsRestHandler(orders.completeOrder)
  completeOrder(@Caller() caller: TCaller) {
    return tsRestHandler(orders.completeOrder, async ({ params }) => ({
      status: 200 as const,
      body: await this.orders.transition(caller, params.orderId, 'complete'),
    }));
  }
}
