import { Module } from '@nestjs/common';
import { PetsRepository } from '@pets/store/pets.repository';
import type { Pool } from 'pg';
import { CONFIG, PG_POOL } from '../../app.tokens';
import type { TConfig } from '../../config';
import { PetsController } from './pets.controller';
import { PetsService } from './pets.service';

@Module({
  controllers: [PetsController],
  providers: [
    PetsService,
    // Built by a factory: the repository carries no Nest decorator, so the bench's floor can use it.
    {
      provide: PetsRepository,
      useFactory: (pool: Pool, config: TConfig) => new PetsRepository(pool, config.mediaBaseUrl),
      inject: [PG_POOL, CONFIG],
    },
  ],
})
export class PetsModule {}
