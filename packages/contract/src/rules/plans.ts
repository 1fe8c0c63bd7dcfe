/** The plans of API keys and organisations (the spec's table). */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type TPlan = (typeof PLANS)[number];

export type TRateLimits = { perMinute: number; perDay: number };

/**
 * Requests per minute and per day of each plan (the spec's table), shared by the API's rate limiter
 * and the developer portal, so both show the same numbers. Enterprise limits are agreed per
 * customer and stored on the organisation (or, for an operator's key, on the key itself).
 */
export const PLAN_LIMITS: Readonly<Record<TPlan, TRateLimits | null>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: null,
};
