import { Injectable } from '@nestjs/common';
import type { TCategory } from '@pets/contract';
import { CategoriesRepository } from '@pets/store/categories.repository';

@Injectable()
export class CategoriesService {
  constructor(private readonly categories: CategoriesRepository) {}

  list(): Promise<TCategory[]> {
    return this.categories.list();
  }
}
