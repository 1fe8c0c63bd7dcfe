import { Controller, Inject } from '@nestjs/common';
import { contract, Header } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { Logger } from 'pino';
import type { TCaller } from '../../api-keys/caller';
import { AppError } from '../../core/app-error';
import { Caller } from '../../http/caller.decorator';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { LOGGER } from '../../logging/logger';
import { PetsService } from './pets.service';

/**
 * The animal's own operations. Its photos (addPetPhoto, deletePetPhoto, reorderPetPhotos, in
 * contract.pets too) have a controller of their own.
 */
const PET_ROUTES = {
  listPets: contract.pets.listPets,
  createPet: contract.pets.createPet,
  getPet: contract.pets.getPet,
  updatePet: contract.pets.updatePet,
};

@Controller()
export class PetsController {
  /** Calls of the deprecated getPet per key since start, so operators see who still uses it. */
  private readonly deprecatedCalls = new Map<string, number>();

  constructor(
    private readonly pets: PetsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @TsRestHandler(PET_ROUTES)
  handler(@Caller() caller: TCaller, @ResponseHeaders() setHeader: TSetHeader) {
    return tsRestHandler(PET_ROUTES, {
      listPets: async ({ query }) => {
        const { items, link, total } = await this.pets.list(query);
        if (link) {
          setHeader(Header.link, link);
        }
        if (total !== undefined) {
          setHeader(Header.totalCount, String(total));
        }
        return { status: 200, body: items };
      },

      createPet: async ({ body }) => {
        const pet = await this.pets.create(caller, body);
        setHeader(Header.location, `${contract.pets.listPets.path}/${pet.id}`);
        return { status: 201, body: pet };
      },

      // Staff keys only: AdmissionGuard refuses any other key with 403, from the contract.
      updatePet: async ({ params, body, headers }) => ({
        status: 200,
        body: await this.pets.update(caller, params.petId, body, headers['if-match']),
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
