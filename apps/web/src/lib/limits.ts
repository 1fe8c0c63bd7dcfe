import 'server-only';
import { VisitorLimiter } from '../edge/limiter';
import { webConfig } from '../env';

let limiter: VisitorLimiter | undefined;

/**
 * The per-visitor limits the actions count (sign-in, status lookups, applications); the edge
 * counts page views and form posts. Redis-backed when REDIS_URL is set, so shared by every
 * instance of the site.
 */
export const visitorLimits = (): VisitorLimiter => {
  const config = webConfig();
  limiter ??= new VisitorLimiter(config.limits, config);
  return limiter;
};
