import { STACK_ENV, startStack } from './harness/stack';

/**
 * Starts the real stack once for the whole run; the returned function is the teardown (it stops
 * every process and drops the database, whether the tests passed or not).
 */
const globalSetup = async () => {
  const { stack, stop, timings } = await startStack();
  process.env[STACK_ENV] = JSON.stringify(stack);
  process.stdout.write(
    `[e2e] stack ready (${timings.join(', ')}): API ${stack.apiUrl}, ` +
      `site ${stack.siteUrl}, database ${stack.databaseName}\n`,
  );
  return async () => {
    await stop();
  };
};

export default globalSetup;
