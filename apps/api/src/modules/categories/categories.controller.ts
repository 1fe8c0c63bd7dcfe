import { Controller } from '@nestjs/common';
import { contract } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import { CategoriesService } from './categories.service';

@Controller()
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @TsRestHandler(contract.categories)
  handler() {
    return tsRestHandler(contract.categories, {
      listCategories: async () => ({ status: 200, body: await this.categories.list() }),
    });
  }
}
