import { Inject, Injectable } from '@nestjs/common';
import type { TListPetsQuery, TNewPet, TPet } from '@pets/contract';
import { PRISMA } from '../../app.tokens';
import type { PrismaClient } from '../../generated/prisma/client';
import { invalidRequest } from '../../http/app-error';
import { decodeCursor, type TPage, toPage } from '../../http/pagination';

const PET_FIELDS = { id: true, name: true, categoryId: true, status: true } as const;

type TPetRow = { id: bigint; name: string; categoryId: bigint; status: TPet['status'] };

export const toPet = (row: TPetRow): TPet => ({
  id: Number(row.id),
  name: row.name,
  categoryId: Number(row.categoryId),
  status: row.status,
});

const isForeignKeyViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2003';

@Injectable()
export class PetsService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  /**
   * Keyset pages, newest first. Each filter combination has an index whose leading columns are the
   * filtered ones and whose last is `id DESC` (pets_status_id_idx, pets_category_id_id_idx,
   * pets_category_id_status_id_idx), so a page is one index range scan; when the filter keeps most
   * rows, PostgreSQL may prefer walking the primary key backwards and skipping the few others, which
   * is as cheap (checked with EXPLAIN ANALYZE on 300,000 rows, uniform and skewed).
   */
  async list({ limit, status, categoryId, cursor }: TListPetsQuery): Promise<TPage<TPet>> {
    const rows = await this.prisma.pet.findMany({
      select: PET_FIELDS,
      where: {
        ...(categoryId ? { categoryId: BigInt(categoryId) } : {}),
        ...(status ? { status } : {}),
        ...(cursor ? { id: { lt: decodeCursor(cursor) } } : {}),
      },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const page = toPage(rows, limit);
    return { items: page.items.map(toPet), nextCursor: page.nextCursor };
  }

  /** A categoryId that names no category is the caller's mistake: 400, found by the foreign key. */
  async create(pet: TNewPet): Promise<TPet> {
    try {
      const row = await this.prisma.pet.create({
        select: PET_FIELDS,
        data: { name: pet.name, categoryId: BigInt(pet.categoryId), status: pet.status },
      });
      return toPet(row);
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw invalidRequest(
          'categoryId',
          `no category has id ${pet.categoryId}; see GET /v1/categories`,
        );
      }
      throw error;
    }
  }

  async get(id: number): Promise<TPet | null> {
    const row = await this.prisma.pet.findUnique({ select: PET_FIELDS, where: { id: BigInt(id) } });
    return row ? toPet(row) : null;
  }
}
