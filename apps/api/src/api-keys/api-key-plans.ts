import type { ApiKeyPlan } from '@pets/db';

export type TRateLimits = { perMinute: number; perDay: number };

/**
 * Requests per minute and per day of each plan (the spec's table). Enterprise limits are agreed
 * per customer and stored on the key itself.
 */
export const PLAN_LIMITS: Record<ApiKeyPlan, TRateLimits | null> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: null,
};

/** Requests without a valid key are limited per client address with the Free plan's numbers. */
export const ANONYMOUS_LIMITS = PLAN_LIMITS.free as TRateLimits;
