import { Module } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../app.tokens';
import { PetsController } from './pets.controller';
import { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

@Module({
  controllers: [PetsController],
  providers: [
    PetsService,
    // Built by a factory: the repository carries no Nest decorator, so the bench's floor can use it.
    {
      provide: PetsRepository,
      useFactory: (pool: Pool) => new PetsRepository(pool),
      inject: [PG_POOL],
    },
  ],
})
export class PetsModule {}
