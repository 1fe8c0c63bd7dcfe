import { Module } from '@nestjs/common';
import { CategoriesRepository } from '@pets/store/categories.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../../app.tokens';
import { CategoriesController } from './categories.controller';
import { CategoriesService } from './categories.service';

@Module({
  controllers: [CategoriesController],
  providers: [
    CategoriesService,
    {
      provide: CategoriesRepository,
      useFactory: (pool: Pool) => new CategoriesRepository(pool),
      inject: [PG_POOL],
    },
  ],
})
export class CategoriesModule {}
