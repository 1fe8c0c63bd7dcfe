import { describeSignInThrottling } from './throttle.test-support';

describeSignInThrottling('sign-in throttling (in-memory store)');
