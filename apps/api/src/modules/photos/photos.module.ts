import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { PhotosRepository } from '@pets/store/photos.repository';
import type { Pool } from 'pg';
import { CONFIG, PG_POOL } from '../../app.tokens';
import type { TConfig } from '../../config';
import { createMediaStore, MEDIA_STORE, type TMediaStore } from './media-store';
import { PhotosController } from './photos.controller';
import { PhotosService } from './photos.service';

/** The photo operations and the store of their files (which MediaModule serves from /media). */
@Module({
  controllers: [PhotosController],
  providers: [
    PhotosService,
    {
      provide: PhotosRepository,
      useFactory: (pool: Pool, config: TConfig) => new PhotosRepository(pool, config.mediaBaseUrl),
      inject: [PG_POOL, CONFIG],
    },
    {
      provide: MEDIA_STORE,
      useFactory: (config: TConfig) => createMediaStore(config),
      inject: [CONFIG],
    },
  ],
  exports: [MEDIA_STORE],
})
export class PhotosModule implements OnApplicationShutdown {
  constructor(@Inject(MEDIA_STORE) private readonly store: TMediaStore & { close: () => void }) {}

  /** The S3 client's open connections. */
  onApplicationShutdown(): void {
    this.store.close();
  }
}
