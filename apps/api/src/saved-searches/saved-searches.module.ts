import { Module } from '@nestjs/common';
import { PetsRepository } from '@pets/store/pets.repository';
import type { Pool } from 'pg';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { MailModule } from '../mail/mail.module';
import { SavedSearchAlerts } from './saved-search-alerts';
import { SavedSearchesController } from './saved-searches.controller';
import { SavedSearchesService } from './saved-searches.service';

/**
 * Saved searches (issue 28): the site-only operations and the worker that sends their alerts.
 * The outbox and the links' signer come from MailModule.
 */
@Module({
  imports: [MailModule],
  controllers: [SavedSearchesController],
  providers: [
    SavedSearchesService,
    {
      provide: PetsRepository,
      useFactory: (pool: Pool, config: TConfig) => new PetsRepository(pool, config.mediaBaseUrl),
      inject: [PG_POOL, CONFIG],
    },
    SavedSearchAlerts,
  ],
})
export class SavedSearchesModule {}
