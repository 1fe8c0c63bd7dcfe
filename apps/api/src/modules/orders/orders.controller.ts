import { Controller } from '@nestjs/common';
import { contract, Header, nextPageLink } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { OrdersService } from './orders.service';

@Controller()
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @TsRestHandler(contract.orders)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(contract.orders, {
      listOrders: async ({ query }) => {
        const page = await this.orders.listForKey(caller.apiKeyId, query);
        if (page.nextCursor) {
          setHeader(
            Header.link,
            nextPageLink(contract.orders.listOrders.path, query, page.nextCursor),
          );
        }
        return { status: 200, body: page.items };
      },
    });
  }
}
