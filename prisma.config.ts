import { defineConfig } from 'prisma/config';

// `prisma generate` needs no database; `prisma migrate deploy` (where Prisma's schema engine
// exists) uses DATABASE_URL. Read it with a fallback: env() would throw when it is unset.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
