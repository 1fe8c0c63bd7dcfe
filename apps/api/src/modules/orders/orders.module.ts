import { Module } from '@nestjs/common';
import { MailRepository } from '@pets/store/mail.repository';
import { OrdersRepository } from '@pets/store/orders.repository';
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

@Module({
  imports: [MailModule, JobsModule],
  controllers: [OrdersController],
  providers: [
    OrdersService,
    OrderLinksService,
    {
      provide: OrdersRepository,
      // Every change writes its emails to the outbox in its own transaction (order-mail.ts).
      useFactory: (pool: Pool, outbox: MailRepository, config: TConfig) =>
        new OrdersRepository(
          pool,
          orderMailHook(outbox, { email: config.store.email, digest: config.STAFF_DIGEST }),
        ),
      inject: [PG_POOL, MailRepository, CONFIG],
    },
    UnconfirmedExpiry,
  ],
})
export class OrdersModule {}
