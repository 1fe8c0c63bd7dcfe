import { Controller } from '@nestjs/common';
import { contract, Header } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { EventsService } from './events.service';

@Controller()
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @TsRestHandler(contract.events)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(contract.events, {
      listEvents: async ({ query }) => {
        const { items, link } = await this.events.list(caller, query);
        if (link) {
          setHeader(Header.link, link);
        }
        return { status: 200, body: items };
      },
    });
  }
}
