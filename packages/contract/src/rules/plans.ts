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

/** The largest custom limit (a PostgreSQL integer). */
export const MAX_CUSTOM_LIMIT = 2_147_483_647;

/** What a plan's name reads as on a page: "Free", "Pro", "Business", "Enterprise". */
export const PLAN_TITLES: Readonly<Record<TPlan, string>> = {
  free: 'Free',
  pro: 'Pro',
  business: 'Business',
  enterprise: 'Enterprise',
};

/**
 * The Enterprise rule, one for the CLI's keys and the back office's organisations: custom limits
 * (rpm per minute, rpd per day) belong to Enterprise only, Enterprise needs both, and a day allows
 * at least a minute's worth. The problem in words (`what`: "keys", "organisations"), or null.
 */
export const customLimitsProblem = (
  plan: TPlan,
  limits: { rpm?: number | null | undefined; rpd?: number | null | undefined },
  what = 'keys',
): string | null => {
  const rpm = limits.rpm ?? undefined;
  const rpd = limits.rpd ?? undefined;
  if (plan !== 'enterprise') {
    return rpm !== undefined || rpd !== undefined
      ? `custom limits (rpm, rpd) are for enterprise ${what} only; the ${plan} plan has fixed limits`
      : null;
  }
  if (rpm === undefined || rpd === undefined) {
    return `enterprise ${what} need both custom limits: rpm (per minute) and rpd (per day)`;
  }
  return rpd < rpm ? 'rpd must be at least rpm' : null;
};
