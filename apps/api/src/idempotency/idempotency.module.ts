import { type DynamicModule, Module } from '@nestjs/common';
import { IdempotencyRepository } from '@pets/store/idempotency.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../app.tokens';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';
import { IDEMPOTENCY_SETTINGS, type TIdempotencySettings } from './idempotency.types';

/**
 * Idempotent POSTs (`Idempotency-Key`, Stripe's semantics): the store in PostgreSQL, its rules and
 * sweeper, and the interceptor that AppModule registers globally.
 *
 * Making an operation idempotent takes one line, in the contract: wrap its route in
 * `idempotent(...)` (packages/contract/src/routers/idempotent.ts):
 *
 *   placeOrder: idempotent({ method: 'POST', path: '/store/orders', body: ZNewOrder, ... }),
 *
 * That declares the header and its 409/422 answers in the OpenAPI document, and the interceptor
 * applies it to whatever handler serves that route (a router-wide `@TsRestHandler(contract.x)`
 * or a single route's): no decorator on the controller. A POST without it fails
 * packages/contract/src/openapi.test.ts.
 */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class by design.
export class IdempotencyModule {
  static register(settings: TIdempotencySettings): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [
        { provide: IDEMPOTENCY_SETTINGS, useValue: settings },
        {
          provide: IdempotencyRepository,
          useFactory: (pool: Pool) => new IdempotencyRepository(pool),
          inject: [PG_POOL],
        },
        IdempotencyService,
        IdempotencyInterceptor,
      ],
      exports: [IdempotencyInterceptor, IdempotencyService],
    };
  }
}
