import { Module } from '@nestjs/common';
import { OrdersRepository } from '@pets/store/orders.repository';
import type { Pool } from 'pg';
import { PG_POOL } from '../../app.tokens';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

@Module({
  controllers: [OrdersController],
  providers: [
    OrdersService,
    {
      provide: OrdersRepository,
      useFactory: (pool: Pool) => new OrdersRepository(pool),
      inject: [PG_POOL],
    },
  ],
})
export class OrdersModule {}
