import { Controller, Inject } from '@nestjs/common';
import { contract } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import { PRISMA } from '../../app.tokens';
import type { PrismaClient } from '../../generated/prisma/client';

@Controller()
export class CategoriesController {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  @TsRestHandler(contract.categories)
  handler() {
    return tsRestHandler(contract.categories, {
      listCategories: async () => {
        const rows = await this.prisma.category.findMany({
          select: { id: true, name: true },
          orderBy: { name: 'asc' },
        });
        return { status: 200, body: rows.map((row) => ({ id: Number(row.id), name: row.name })) };
      },
    });
  }
}
