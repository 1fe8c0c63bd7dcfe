/** Injection tokens for values built outside Nest (in main.ts or a test) and handed to it. */
export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
/**
 * The `pg` pool the feature repositories' Kysely queries run on; PRISMA, on the same pool, serves
 * the API keys, the seed and the readiness check.
 */
export const PG_POOL = Symbol('PG_POOL');
