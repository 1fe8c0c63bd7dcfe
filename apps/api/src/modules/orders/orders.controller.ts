import { Controller } from '@nestjs/common';
import { contract, Header } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { OrderLinksService } from './order-links.service';
import { OrdersService } from './orders.service';

const { orders } = contract;

/**
 * The adoption orders' operations, one handler for the router as in every controller. Who may call
 * each one (403) is the admission's, and which take `Idempotency-Key` (every POST) the
 * IdempotencyInterceptor's, both from the contract.
 */
@Controller()
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly links: OrderLinksService,
  ) {}

  @TsRestHandler(orders)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(orders, {
      listOrders: async ({ query }) => {
        const { items, link } = await this.orders.list(caller, query);
        if (link) {
          setHeader(Header.link, link);
        }
        return { status: 200, body: items };
      },

      getOrder: async ({ params }) => ({
        status: 200,
        body: await this.orders.get(caller, params.orderId),
      }),

      placeOrder: async ({ body }) => {
        const order = await this.orders.place(caller, body);
        setHeader(Header.location, `${orders.listOrders.path}/${order.id}`);
        return { status: 201, body: order };
      },

      getOrderByLink: async ({ body }) => ({
        status: 200,
        body: await this.links.byLink(body.token),
      }),

      confirmOrderByLink: async ({ body }) => ({
        status: 200,
        body: await this.links.confirmByLink(caller, body.token),
      }),

      sendOrderLinks: async ({ body }) => ({
        status: 202,
        body: await this.links.send(body.email),
      }),

      cancelOrder: async ({ params }) => ({
        status: 200,
        body: await this.orders.transition(caller, params.orderId, 'cancel'),
      }),

      approveOrder: async ({ params }) => ({
        status: 200,
        body: await this.orders.transition(caller, params.orderId, 'approve'),
      }),

      listOrderNotes: async ({ params }) => ({
        status: 200,
        body: await this.orders.notes(params.orderId),
      }),

      addOrderNote: async ({ params, body }) => ({
        status: 201,
        body: await this.orders.addNote(caller, params.orderId, body),
      }),

      askAdopter: async ({ params, body }) => ({
        status: 201,
        body: await this.orders.askAdopter(caller, params.orderId, body),
      }),

      declineOrder: async ({ params, body }) => ({
        status: 200,
        body: await this.orders.transition(caller, params.orderId, 'decline', body),
      }),

      completeOrder: async ({ params }) => ({
        status: 200,
        body: await this.orders.transition(caller, params.orderId, 'complete'),
      }),
    });
  }
}
