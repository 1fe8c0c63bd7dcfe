import { Module } from '@nestjs/common';
import { MailRepository } from '@pets/store/mail.repository';
import { allOf, OrdersRepository, orderEventsHook } from '@pets/store/orders.repository';
import type { Pool } from 'pg';
import { CONFIG, PG_POOL } from '../../app.tokens';
import type { TConfig } from '../../config';
import { JobsModule } from '../../jobs/jobs.module';
import { MailModule } from '../../mail/mail.module';
import { OrderLinksService } from './order-links.service';
import { orderMailHook } from './order-mail';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import { UnconfirmedExpiry } from './unconfirmed-expiry';
import { WithdrawalController } from './withdrawal.controller';

@Module({
  imports: [MailModule, JobsModule],
  controllers: [OrdersController, WithdrawalController],
  providers: [
    OrdersService,
    OrderLinksService,
    {
      provide: OrdersRepository,
      // Every change writes its emails to the outbox (order-mail.ts) and its events, in its own
      // transaction.
      useFactory: (pool: Pool, outbox: MailRepository, config: TConfig) =>
        new OrdersRepository(
          pool,
          allOf(
            orderMailHook(outbox, { email: config.store.email, digest: config.STAFF_DIGEST }),
            orderEventsHook(config.mediaBaseUrl),
          ),
        ),
      inject: [PG_POOL, MailRepository, CONFIG],
    },
    UnconfirmedExpiry,
  ],
})
export class OrdersModule {}
