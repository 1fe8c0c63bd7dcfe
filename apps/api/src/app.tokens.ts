/** Injection tokens for values built outside Nest (in main.ts or a test) and handed to it. */
export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
/** The `pg` pool under PRISMA, for the few statements too hot for Prisma's per-query overhead. */
export const PG_POOL = Symbol('PG_POOL');
