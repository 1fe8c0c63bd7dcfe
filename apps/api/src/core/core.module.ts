import { type DynamicModule, Module } from '@nestjs/common';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { CONFIG, PG_POOL } from '../app.tokens';
import type { TConfig } from '../config';
import { LOGGER } from '../logging/logger';

/** Values built before Nest starts (in main.ts or a test) that the whole application uses. */
export type TCoreDependencies = {
  config: TConfig;
  logger: Logger;
  /**
   * Where the access log goes when not to `logger`'s destination: main.ts gives it an
   * asynchronous buffered one (logging/logger.ts). Same level and fields as `logger`.
   */
  accessLogger?: Logger;
  /**
   * The `pg` pool every query of the serving process runs on (Kysely's prepared statements; no
   * Prisma client at run time: docs/decisions.md, "Prisma at run time").
   */
  pool: Pool;
};

/**
 * The configuration, the logger and the database handles. Global, honestly so: they are
 * process-wide values made outside Nest, and nearly every room needs one (every feature the
 * database, the filter and the guards the logger, health and docs the configuration); an import in
 * every module would say nothing. Everything else is imported where it is used.
 */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class by design.
export class CoreModule {
  static register({ config, logger, pool }: TCoreDependencies): DynamicModule {
    return {
      module: CoreModule,
      global: true,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: PG_POOL, useValue: pool },
      ],
      exports: [CONFIG, LOGGER, PG_POOL],
    };
  }
}
