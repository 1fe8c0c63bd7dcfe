import { randomBytes } from 'node:crypto';
import { describeSignInThrottling } from './throttle.test-support';

// A real Redis: TEST_REDIS_URL, or the local server .ci/run makes sure is up.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

describeSignInThrottling('sign-in throttling (Redis)', {
  env: { REDIS_URL },
  rateLimit: { redisKeyPrefix: `pets:test:${randomBytes(6).toString('hex')}:` },
});
