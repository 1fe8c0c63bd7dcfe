/** Injection tokens for values built outside Nest (in main.ts or a test) and handed to it. */
export const CONFIG = Symbol('CONFIG');
export const PRISMA = Symbol('PRISMA');
