import { Injectable } from '@nestjs/common';
import {
  contract,
  listPetsQueryIssue,
  PETS_CURSOR,
  type TListPetsQuery,
  type TNewPet,
  type TPage,
  type TPet,
  type TPetUpdate,
} from '@pets/contract';
import {
  OpenOrderConflictError,
  PetsRepository,
  PreconditionFailedError,
  UnknownCategoryError,
} from '@pets/store/pets.repository';
import { auditActorOf, type TCaller } from '../../api-keys/caller';
import { AppError, invalidRequest } from '../../core/app-error';
import { conditionNames, etagOfValue } from '../../http/etag';
import { listPage, type TListPage } from '../../http/pagination';

/**
 * The rules of the pets operations on top of the repository: the list pages through listPage (a
 * cursor read, or refused with a 400, before any SQL), and an unknown category is the caller's
 * mistake. The other methods return the repository's promise as it is: no extra await.
 */
@Injectable()
export class PetsService {
  constructor(private readonly pets: PetsRepository) {}

  /**
   * A page of the list, and with `include=total_count` how many animals match its filters. A
   * cursor carries its list's filters: those the request leaves out are the cursor's, and one it
   * sends must be the cursor's (else a 400).
   */
  list(query: TListPetsQuery): Promise<TListPage<TPage<TPet> & { total?: number }>> {
    return listPage(PETS_CURSOR, contract.pets.listPets.path, query, (filters, before) => {
      // On the list's filters, the cursor's included: a cursor carries feeCurrency with feeMax.
      const issue = listPetsQueryIssue(filters);
      if (issue) {
        throw invalidRequest(`query.${issue.field}`, issue.message);
      }
      const pageOf = this.pets.list({ ...filters, before });
      if (query.include !== 'total_count') {
        return pageOf;
      }
      // Two statements at once on two connections: the count does not delay the page.
      return Promise.all([pageOf, this.pets.count(filters)]).then(([page, total]) => ({
        ...page,
        total,
      }));
    });
  }

  /**
   * A categoryId that names no category is the caller's mistake: 400, found by the foreign key.
   * The animal records which key created it (a partner key may change the photos of its own
   * animals only); a staff caller's creation is audited with it.
   */
  create(caller: TCaller, pet: TNewPet): Promise<TPet> {
    return this.pets.create(pet, caller.apiKeyId, auditActorOf(caller)).catch((error: unknown) => {
      throw error instanceof UnknownCategoryError
        ? invalidRequest(
            'categoryId',
            `no category has id ${pet.categoryId}; see GET /v1/categories`,
          )
        : error;
    });
  }

  get(id: number): Promise<TPet | null> {
    return this.pets.get(id);
  }

  /**
   * updatePet (staff keys; AdmissionGuard checks the role): 404 for an unknown animal, 400 for an
   * unknown category, 409 `pet_status_conflict` for a status that contradicts an approved order
   * (the animal is `pending`, on hold for that adopter, until the order is declined, cancelled or
   * completed). The change is audited in its transaction, naming the caller and the fields.
   */
  async update(caller: TCaller, id: number, changes: TPetUpdate, ifMatch?: string): Promise<TPet> {
    // If-Match: checked on the locked row, so no other change comes between the check and this one.
    const precondition =
      ifMatch === undefined
        ? undefined
        : (current: TPet) => conditionNames(ifMatch, etagOfValue(current), false);
    try {
      const pet = await this.pets.update(id, changes, precondition, auditActorOf(caller));
      if (!pet) {
        throw new AppError('not_found', `No animal has id ${id}.`);
      }
      return pet;
    } catch (error) {
      if (error instanceof UnknownCategoryError) {
        throw invalidRequest(
          'categoryId',
          `no category has id ${error.categoryId}; see GET /v1/categories`,
        );
      }
      if (error instanceof PreconditionFailedError) {
        throw new AppError(
          'precondition_failed',
          `Animal ${id} changed since the version your If-Match names: read it again (its ETag) and resend the change.`,
        );
      }
      if (error instanceof OpenOrderConflictError) {
        throw new AppError(
          'pet_status_conflict',
          `Animal ${id} is on hold for an approved adoption order, so it stays pending: decline, cancel or complete that order instead.`,
        );
      }
      throw error;
    }
  }
}
