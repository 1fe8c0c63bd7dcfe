import { Controller, Inject } from '@nestjs/common';
import { contract, Header, nextPageLink } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { Logger } from 'pino';
import type { TCaller } from '../../api-keys/caller';
import { AppError } from '../../http/app-error';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { LOGGER } from '../../logging/logger';
import { PetsService } from './pets.service';

@Controller()
export class PetsController {
  /** Calls of the deprecated getPet per key since start, so operators see who still uses it. */
  private readonly deprecatedCalls = new Map<string, number>();

  constructor(
    private readonly pets: PetsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @TsRestHandler(contract.pets)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(contract.pets, {
      listPets: async ({ query }) => {
        const page = await this.pets.list(query);
        if (page.nextCursor) {
          setHeader(Header.link, nextPageLink(contract.pets.listPets.path, query, page.nextCursor));
        }
        return { status: 200, body: page.items };
      },

      createPet: async ({ body }) => {
        const pet = await this.pets.create(body);
        setHeader(Header.location, `${contract.pets.listPets.path}/${pet.id}`);
        return { status: 201, body: pet };
      },

      // Staff keys only: AccessGuard refuses any other key with 403, from the contract.
      updatePet: async ({ params, body }) => ({
        status: 200,
        body: await this.pets.update(params.petId, body),
      }),

      getPet: async ({ params }) => {
        const calls = (this.deprecatedCalls.get(caller.start) ?? 0) + 1;
        this.deprecatedCalls.set(caller.start, calls);
        this.logger.warn(
          { event: 'deprecated_operation', operation: 'getPet', apiKey: caller.start, calls },
          'deprecated operation getPet called',
        );
        const pet = await this.pets.get(params.petId);
        if (!pet) {
          const error = new AppError('not_found', `No animal has id ${params.petId}.`);
          return { status: 404, body: error.toBody() };
        }
        return { status: 200, body: pet };
      },
    });
  }
}
