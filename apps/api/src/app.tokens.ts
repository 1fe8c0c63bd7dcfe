/** Injection tokens for values built outside Nest (in main.ts or a test) and handed to it. */
export const CONFIG = Symbol('CONFIG');
/** The `pg` pool every query of the serving process runs on (Kysely's prepared statements). */
export const PG_POOL = Symbol('PG_POOL');
