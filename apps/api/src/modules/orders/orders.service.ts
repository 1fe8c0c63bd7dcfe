import { Inject, Injectable } from '@nestjs/common';
import type { TListOrdersQuery, TOrder } from '@pets/contract';
import { PRISMA } from '../../app.tokens';
import type { PrismaClient } from '../../generated/prisma/client';
import { decodeCursor, type TPage, toPage } from '../../http/pagination';

@Injectable()
export class OrdersService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  /** The adoption orders of one API key, newest first; (api_key_id[, status], id) indexes serve it. */
  async listForKey(
    apiKeyId: bigint,
    { limit, status, cursor }: TListOrdersQuery,
  ): Promise<TPage<TOrder>> {
    const rows = await this.prisma.order.findMany({
      select: { id: true, petId: true, status: true, placedAt: true },
      where: {
        apiKeyId,
        ...(status ? { status } : {}),
        ...(cursor ? { id: { lt: decodeCursor(cursor) } } : {}),
      },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const page = toPage(rows, limit);
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((row) => ({
        id: Number(row.id),
        petId: Number(row.petId),
        status: row.status,
        placedAt: row.placedAt.toISOString(),
      })),
    };
  }
}
