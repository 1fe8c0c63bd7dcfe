import { WORKERS } from './harness/projects';
import { STACK_ENV, startStack, type TStacks } from './harness/stack';

/**
 * Starts the real stacks once for the whole run, all at once: one for each worker slot, so the
 * workers run side by side without meeting in one database, one site's limits or one API's log.
 * The returned function is the teardown (it stops every process and drops the databases, whether
 * the tests passed or not).
 */
const globalSetup = async () => {
  // The first stack's logs keep their plain names (artifacts/logs/api.log), the others' are w2-api.log...
  const names = Array.from({ length: WORKERS }, (_, index) => (index === 0 ? '' : `w${index + 1}`));
  const started = await Promise.allSettled(names.map((name) => startStack(name)));
  const running = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const stopAll = async () => {
    await Promise.all(running.map(({ stop }) => stop()));
  };
  if (running.length < started.length) {
    await stopAll();
    throw started.find((result) => result.status === 'rejected')?.reason;
  }
  const stacks: TStacks = running.map(({ stack }) => stack);
  process.env[STACK_ENV] = JSON.stringify(stacks);
  running.forEach(({ stack, timings }, index) => {
    process.stdout.write(
      `[e2e] stack ${index + 1} of ${WORKERS} ready (${timings.join(', ')}): API ${stack.apiUrl}, ` +
        `site ${stack.siteUrl}, database ${stack.databaseName}\n`,
    );
  });
  return stopAll;
};

export default globalSetup;
