import { PLAN_LIMITS, type TRateLimits } from '@pets/contract/rules';

// The plans' numbers live in @pets/contract, so the developer portal shows what the limiter counts.
export { PLAN_LIMITS, type TRateLimits };

/** Requests without a valid key are limited per client address with the Free plan's numbers. */
export const ANONYMOUS_LIMITS = PLAN_LIMITS.free as TRateLimits;
