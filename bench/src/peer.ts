import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import {
  BadRequestException,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  Query,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { nextPageLink } from '@pets/contract/rules';
import { PETS_CURSOR, ZPetStatus } from '@pets/contract/schemas';
import { createPrismaClient } from '@pets/db';
import { mediaUrl } from '@pets/store/media-url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import { z } from 'zod';

/**
 * The conventional peer: `GET /v1/pets` as a NestJS team would write it from the frameworks'
 * documentation, to compare the API with an app of its own kind (the floor is the least any
 * server could do; this is what the usual way costs). Per request: Fastify's pino request log
 * (two lines), a bearer-key guard (SHA-256 of the key, the row from Prisma, kept 60 s in memory),
 * `@nestjs/throttler` with two named windows (a minute and a day, the key's own limits) on
 * `@nest-lab/throttler-storage-redis` (memory when REDIS_URL is unset), the query parsed by zod,
 * Prisma `findMany` (through `@prisma/adapter-pg`, as @pets/db builds the client), the rows mapped
 * to the contract's Pet and the `Link` of the next page. Only the list: limit, status and cursor.
 * No tuning beyond what those libraries' documentation shows; see bench/README.md for what it
 * does and does not do compared with the API.
 *
 * Environment: DATABASE_URL, REDIS_URL (optional), REDIS_KEY_PREFIX, PORT, HOST (127.0.0.1),
 * DATABASE_POOL_SIZE (10), MEDIA_BASE_URL.
 */

const env = process.env;
const MEDIA_BASE_URL = env.MEDIA_BASE_URL ?? 'http://localhost/media';
const KEY_CACHE_MS = 60_000;
/** The limits of a key without its own (the API's free plan's, for a key the run never makes). */
const DEFAULT_PER_MINUTE = 60;
const DEFAULT_PER_DAY = 1_000;

const prisma = createPrismaClient(env.DATABASE_URL ?? '', Number(env.DATABASE_POOL_SIZE ?? 10));

type TCaller = {
  id: bigint;
  rateLimitPerMinute: number | null;
  rateLimitPerDay: number | null;
};
type TRequest = FastifyRequest & { caller?: TCaller };

@Injectable()
class ApiKeyGuard implements CanActivate {
  private readonly cache = new Map<string, { caller: TCaller | null; until: number }>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<TRequest>();
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) {
      throw new UnauthorizedException('Invalid API key.');
    }
    const hash = createHash('sha256').update(header.slice(7)).digest('hex');
    let cached = this.cache.get(hash);
    if (!cached || cached.until < Date.now()) {
      const row = await prisma.apiKey.findUnique({
        where: { hash },
        select: { id: true, revokedAt: true, rateLimitPerMinute: true, rateLimitPerDay: true },
      });
      cached = {
        caller: row && row.revokedAt === null ? row : null,
        until: Date.now() + KEY_CACHE_MS,
      };
      this.cache.set(hash, cached);
    }
    if (!cached.caller) {
      throw new UnauthorizedException('Invalid API key.');
    }
    request.caller = cached.caller;
    return true;
  }
}

/** Counts per key rather than per address (the guard above has found the key). */
@Injectable()
class KeyThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const { caller, ip } = request as unknown as TRequest;
    return String(caller?.id ?? ip);
  }
}

const callerOf = (context: ExecutionContext): TCaller | undefined =>
  context.switchToHttp().getRequest<TRequest>().caller;

const ZListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: ZPetStatus.optional(),
  cursor: z.string().optional(),
});

type TPhotoJson = {
  id: number;
  width: number;
  height: number;
  placeholder: string;
  sizes: { width: number; height: number; key: string }[];
};

@Controller('v1/pets')
class PetsController {
  @Get()
  async list(
    @Query() query: Record<string, string>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const parsed = ZListQuery.safeParse(query);
    if (!parsed.success) {
      throw new BadRequestException(parsed.error.issues);
    }
    const { limit, status, cursor } = parsed.data;
    const filters = { status };
    const reading = cursor === undefined ? undefined : PETS_CURSOR.read(cursor, filters);
    if (reading === null || (reading && 'mismatch' in reading)) {
      throw new BadRequestException('Invalid cursor.');
    }
    const rows = await prisma.pet.findMany({
      where: {
        ...(status ? { status } : {}),
        ...(reading ? { id: { lt: reading.before } } : {}),
      },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    if (rows.length > limit && last) {
      reply.header(
        'link',
        nextPageLink('/v1/pets', { limit, ...filters }, PETS_CURSOR.encode(last.id, filters)),
      );
    }
    return page.map((pet) => ({
      id: Number(pet.id),
      name: pet.name,
      categoryId: Number(pet.categoryId),
      status: pet.status,
      description: pet.description,
      sex: pet.sex,
      age: pet.age,
      size: pet.size,
      breed: pet.breed,
      arrivedAt: pet.arrivedAt?.toISOString().slice(0, 10) ?? null,
      goodWithChildren: pet.goodWithChildren,
      goodWithDogs: pet.goodWithDogs,
      goodWithCats: pet.goodWithCats,
      houseTrained: pet.houseTrained,
      spayedNeutered: pet.spayedNeutered,
      vaccinated: pet.vaccinated,
      specialNeeds: pet.specialNeeds,
      specialNeedsNote: pet.specialNeedsNote,
      energyLevel: pet.energyLevel,
      coatLength: pet.coatLength,
      colors: pet.colors,
      adoptionFee:
        pet.adoptionFeeAmount === null
          ? null
          : { amount: pet.adoptionFeeAmount, currency: pet.adoptionFeeCurrency },
      photos: (pet.photoList as TPhotoJson[]).map((photo) => ({
        id: Number(photo.id),
        width: photo.width,
        height: photo.height,
        placeholder: photo.placeholder,
        sizes: photo.sizes.map(({ width, height, key }) => ({
          width,
          height,
          url: mediaUrl(MEDIA_BASE_URL, key),
        })),
      })),
      applicationsInReview: pet.applicationsInReview,
      updatedAt: pet.updatedAt.toISOString(),
    }));
  }
}

@Module({
  imports: [
    ThrottlerModule.forRoot({
      throttlers: [
        {
          name: 'minute',
          ttl: 60_000,
          limit: (context) => callerOf(context)?.rateLimitPerMinute ?? DEFAULT_PER_MINUTE,
        },
        {
          name: 'day',
          ttl: 86_400_000,
          limit: (context) => callerOf(context)?.rateLimitPerDay ?? DEFAULT_PER_DAY,
        },
      ],
      ...(env.REDIS_URL
        ? {
            storage: new ThrottlerStorageRedisService(
              new Redis(env.REDIS_URL, { keyPrefix: env.REDIS_KEY_PREFIX ?? '' }),
            ),
          }
        : {}),
    }),
  ],
  controllers: [PetsController],
  providers: [
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: KeyThrottlerGuard },
  ],
})
class PeerModule {}

const main = async () => {
  const app = await NestFactory.create<NestFastifyApplication>(
    PeerModule,
    new FastifyAdapter({ logger: true }),
    { logger: ['error', 'warn'] },
  );
  app.enableShutdownHooks();
  await app.listen(Number(env.PORT ?? 0), env.HOST ?? '127.0.0.1');
  process.stdout.write(`peer listening on ${await app.getUrl()}\n`);
};

main().catch((failure: unknown) => {
  process.stderr.write(`peer could not start: ${String(failure)}\n`);
  process.exit(1);
});
